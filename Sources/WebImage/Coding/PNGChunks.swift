import Foundation

/// The chunks of a PNG file, split without decoding, with their CRCs checked.
struct PNGChunks {
    /// One chunk: its four-letter type and where its payload lies in the file.
    struct Chunk {
        let type: String
        let payload: Range<Int>
    }

    /// The whole file.
    let data: Data
    /// The chunks in file order, up to `IEND` or the end of the data.
    let chunks: [Chunk]

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Splits `data`; throws for a missing signature, a chunk running past the end, or (when `checksums` is set)
    /// a bad CRC.
    init(_ data: Data, checksums: Bool = true) throws(WebImageError) {
        let data = Data(data)
        guard data.starts(with: Self.signature) else { throw WebImageError(.corruptData, "not a PNG signature") }
        var chunks: [Chunk] = []
        var offset = 8
        while offset + 12 <= data.count {
            let length = Int(data.readUInt32(at: offset))
            let type = String(decoding: data[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let start = offset + 8
            guard length < Int(Int32.max), start + length + 4 <= data.count else {
                throw WebImageError(.truncatedData, "PNG chunk \(type) runs past the end of the data")
            }
            let stored = data.readUInt32(at: start + length)
            guard !checksums || CRC32.checksum(data[(offset + 4)..<(start + length)]) == stored else {
                throw WebImageError(.corruptData, "PNG chunk \(type) has a bad CRC")
            }
            chunks.append(Chunk(type: type, payload: start..<(start + length)))
            offset = start + length + 4
            if type == "IEND" { break }
        }
        self.data = data
        self.chunks = chunks
    }

    /// The payload of a chunk.
    func payload(_ chunk: Chunk) -> Data { data[chunk.payload] }

    /// Whether a chunk of `type` is present.
    func has(_ type: String) -> Bool { chunks.contains { $0.type == type } }

    /// `IHDR`'s fields.
    func header() throws(WebImageError) -> (width: Int, height: Int, bitDepth: Int, colorType: Int) {
        guard let first = chunks.first, first.type == "IHDR", first.payload.count == 13 else {
            throw WebImageError(.corruptData, "PNG does not start with a valid IHDR chunk")
        }
        let start = first.payload.lowerBound
        return (
            Int(data.readUInt32(at: start)), Int(data.readUInt32(at: start + 4)), Int(data[start + 8]),
            Int(data[start + 9])
        )
    }

    /// `acTL`'s frame and play counts, where the file is an APNG.
    func animationControl() -> (frameCount: Int, playCount: Int)? {
        guard let chunk = chunks.first(where: { $0.type == "acTL" }), chunk.payload.count == 8 else { return nil }
        let start = chunk.payload.lowerBound
        return (Int(data.readUInt32(at: start)), Int(data.readUInt32(at: start + 4)))
    }

    /// The payload of `eXIf`, if any.
    var exif: Data? { chunks.first { $0.type == "eXIf" }.map(payload) }

    /// The packet of the first uncompressed XMP `iTXt` chunk, if any.
    var xmp: Data? { chunks.lazy.filter { $0.type == "iTXt" }.compactMap { XMPMetadata.pngPacket(payload($0)) }.first }

    /// Appends a chunk of `type` with `payload` and its CRC to `png`.
    static func append(_ type: String, _ payload: [UInt8], to png: inout Data) {
        png.append(contentsOf: bigEndian(payload.count))
        png.append(contentsOf: Array(type.utf8))
        png.append(contentsOf: payload)
        png.append(contentsOf: bigEndian(Int(CRC32.checksum(Data(type.utf8), Data(payload)))))
    }

    /// The low 32 bits of `value`, big-endian.
    static func bigEndian(_ value: Int) -> [UInt8] {
        [
            UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
            UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value),
        ]
    }
}

extension Data {
    /// The big-endian 32-bit integer at index `offset`.
    func readUInt32(at offset: Int) -> UInt32 {
        UInt32(self[offset]) << 24 | UInt32(self[offset + 1]) << 16 | UInt32(self[offset + 2]) << 8
            | UInt32(self[offset + 3])
    }

    /// The big-endian 16-bit integer at index `offset`.
    func readUInt16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) << 8 | UInt16(self[offset + 1])
    }
}
