import CZlib
import Foundation

/// The CRC-32 of PNG and zlib, computed by zlib, for checking and rebuilding PNG chunks.
enum CRC32 {
    /// The checksum of `parts`, taken as one run of bytes.
    static func checksum(_ parts: Data...) -> UInt32 {
        var crc = crc32(0, nil, 0)
        for part in parts {
            crc = part.withUnsafeBytes { bytes in
                crc32(crc, bytes.bindMemory(to: UInt8.self).baseAddress, uInt(bytes.count))
            }
        }
        return UInt32(crc)
    }
}
