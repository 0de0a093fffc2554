extension UnsafeRawBufferPointer {
    /// The little-endian 16-bit number at `offset`; the caller has checked that its two bytes are in the buffer.
    func littleUInt16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    /// The little-endian 32-bit number at `offset`; the caller has checked that its four bytes are in the buffer.
    func littleUInt32(at offset: Int) -> UInt32 {
        UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}
