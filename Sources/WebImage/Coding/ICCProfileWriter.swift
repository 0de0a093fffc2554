import CWebP
import Foundation

/// Embeds an ICC profile (and, for ``EXIFMetadata`` and ``XMPMetadata``, other chunks and segments) into encoded
/// bytes, for encoders whose library does not take them.
enum ICCProfileWriter {
    /// `jpeg` with `profile` in `APP2` `ICC_PROFILE` segments (65,519 bytes each) right after `SOI` and any `APP0`.
    static func jpeg(_ jpeg: Data, profile: Data) throws(WebImageError) -> Data {
        let chunkSize = 65_519
        let count = (profile.count + chunkSize - 1) / chunkSize
        guard count >= 1, count <= 255 else {
            throw WebImageError(.encodingFailed, "an ICC profile of \(profile.count) bytes does not fit a JPEG")
        }
        var segments = Data()
        for index in 0..<count {
            let part = profile.dropFirst(index * chunkSize).prefix(chunkSize)
            let length = 2 + 12 + 2 + part.count
            segments.append(contentsOf: [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)])
            segments.append(contentsOf: Array("ICC_PROFILE".utf8) + [0, UInt8(index + 1), UInt8(count)])
            segments.append(part)
        }
        return try insertingJPEGSegments(segments, into: jpeg)
    }

    /// `jpeg` with one `APP1` segment holding `prefix` then `payload` (an EXIF block or an XMP packet, named `what`
    /// in the error when it does not fit), right after `SOI` and any `APP0`.
    static func insertingAPP1(
        prefix: [UInt8], payload: Data, into jpeg: Data, what: String
    ) throws(WebImageError) -> Data {
        let length = 2 + prefix.count + payload.count
        guard length <= 65_535 else {
            throw WebImageError(.encodingFailed, "\(what) of \(payload.count) bytes does not fit a JPEG")
        }
        var segment = Data([0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + prefix)
        segment.append(payload)
        return try insertingJPEGSegments(segment, into: jpeg)
    }

    /// `jpeg` with `segments` (whole marker segments) right after `SOI` and any `APP0`.
    static func insertingJPEGSegments(_ segments: Data, into jpeg: Data) throws(WebImageError) -> Data {
        let start = jpeg.startIndex
        var insertAt = start + 2
        if jpeg.count >= 6, jpeg[start + 2] == 0xFF, jpeg[start + 3] == 0xE0 {
            insertAt += 2 + (Int(jpeg[start + 4]) << 8 | Int(jpeg[start + 5]))
        }
        guard jpeg.count >= 4, insertAt <= jpeg.endIndex else {
            throw WebImageError(.encodingFailed, "unexpected JPEG layout")
        }
        var output = Data(jpeg[start..<insertAt])
        output.append(segments)
        output.append(jpeg[insertAt...])
        return output
    }

    /// `webp` (still or animated) with `chunks` (`ICCP` for a profile, `EXIF`), set by libwebpmux.
    static func webp(_ webp: Data, chunks: [(fourCC: String, payload: Data)]) throws(WebImageError) -> Data {
        try webp.withImageBytes { bytes throws(WebImageError) in
            var input = WebPData(bytes: bytes.bindMemory(to: UInt8.self).baseAddress, size: bytes.count)
            guard let mux = WebPMuxCreate(&input, 0) else {
                throw WebImageError(.encodingFailed, "libwebpmux cannot read the encoded WebP")
            }
            defer { WebPMuxDelete(mux) }
            for (fourCC, payload) in chunks {
                try payload.withImageBytes { chunkBytes throws(WebImageError) in
                    var chunk = WebPData(
                        bytes: chunkBytes.bindMemory(to: UInt8.self).baseAddress, size: chunkBytes.count)
                    // copy_data 1: libwebpmux keeps its own copy, as the bytes are only borrowed here.
                    guard WebPMuxSetChunk(mux, fourCC, &chunk, 1) == WEBP_MUX_OK else {
                        throw WebImageError(.encodingFailed, "libwebpmux cannot add the \(fourCC) chunk")
                    }
                }
            }
            var output = WebPData()
            guard WebPMuxAssemble(mux, &output) == WEBP_MUX_OK else {
                throw WebImageError(.encodingFailed, "libwebpmux cannot assemble the WebP")
            }
            defer { WebPDataClear(&output) }
            return Data(bytes: output.bytes, count: output.size)
        }
    }
}
