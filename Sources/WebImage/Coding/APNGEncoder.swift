import CZlib
import Foundation

/// Writes animated PNG: `acTL` with the loop count, then for each whole-canvas frame an `fcTL` (its duration in
/// milliseconds, no disposal, source blending) and its data, `IDAT` for the first frame and `fdAT` for the others.
///
/// libspng writes only still PNGs, so the chunks are assembled here; rows are Paeth-filtered and compressed with
/// zlib. Truecolour with alpha, or without when every frame is opaque; an ICC profile goes in `iCCP` and EXIF in
/// `eXIf` and XMP in `iTXt` when asked.
enum APNGEncoder {
    static func encode(_ image: Image, options: EncodingOptions) throws(WebImageError) -> Data {
        let color = EncodingColor(image, options: options)
        let opaque = color.frames.allSatisfy { $0.pixels.isOpaque }
        let (width, height) = (image.width, image.height)
        guard width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw WebImageError(.encodingFailed, "\(width)x\(height) is too large for PNG")
        }
        var png = Data(PNGChunks.signature)
        let colorType: UInt8 = opaque ? 2 : 6
        PNGChunks.append(
            "IHDR", PNGChunks.bigEndian(width) + PNGChunks.bigEndian(height) + [8, colorType, 0, 0, 0], to: &png)
        if let profile = color.profile {
            PNGChunks.append("iCCP", Array("ICC Profile".utf8) + [0, 0] + (try compress(Array(profile))), to: &png)
        }
        if let exif = color.exif { PNGChunks.append("eXIf", Array(exif), to: &png) }
        if let xmp = color.xmp { PNGChunks.append("iTXt", XMPMetadata.pngPayload(xmp), to: &png) }
        PNGChunks.append(
            "acTL",
            PNGChunks.bigEndian(color.frames.count) + PNGChunks.bigEndian(min(max(image.loopCount, 0), Int(Int32.max))),
            to: &png)
        var sequence = 0
        for (index, frame) in color.frames.enumerated() {
            let milliseconds = frame.duration.isFinite ? Int(min(max((frame.duration * 1000).rounded(), 0), 65535)) : 0
            // Sequence number, size, offset (0, 0), delay as milliseconds / 1000, dispose none, blend source.
            var control: [UInt8] = PNGChunks.bigEndian(sequence)
            control += PNGChunks.bigEndian(width)
            control += PNGChunks.bigEndian(height)
            control += [0, 0, 0, 0, 0, 0, 0, 0]
            control += [UInt8(milliseconds >> 8), UInt8(milliseconds & 0xFF), 0x03, 0xE8, 0, 0]
            PNGChunks.append("fcTL", control, to: &png)
            sequence += 1
            let data = try compress(filtered(frame.pixels, opaque: opaque))
            if index == 0 {
                PNGChunks.append("IDAT", data, to: &png)
            } else {
                PNGChunks.append("fdAT", PNGChunks.bigEndian(sequence) + data, to: &png)
                sequence += 1
            }
        }
        PNGChunks.append("IEND", [], to: &png)
        return png
    }

    /// The scanlines, each a Paeth filter byte then the filtered samples (RGB or RGBA).
    private static func filtered(_ pixels: PixelBuffer, opaque: Bool) -> [UInt8] {
        let channels = opaque ? 3 : 4
        let stride = pixels.width * channels
        var output = [UInt8](repeating: 0, count: (stride + 1) * pixels.height)
        var previous = [UInt8](repeating: 0, count: stride)
        var current = [UInt8](repeating: 0, count: stride)
        pixels.bytes.withUnsafeBufferPointer { source in
            for y in 0..<pixels.height {
                var from = y * pixels.bytesPerRow
                for x in 0..<pixels.width {
                    for channel in 0..<channels { current[x * channels + channel] = source[from + channel] }
                    from += 4
                }
                let rowStart = y * (stride + 1)
                output[rowStart] = 4
                for index in 0..<stride {
                    let left = index >= channels ? Int(current[index - channels]) : 0
                    let up = Int(previous[index])
                    let upLeft = index >= channels ? Int(previous[index - channels]) : 0
                    let estimate = left + up - upLeft
                    let (toLeft, toUp, toUpLeft) = (abs(estimate - left), abs(estimate - up), abs(estimate - upLeft))
                    let predictor = toLeft <= toUp && toLeft <= toUpLeft ? left : toUp <= toUpLeft ? up : upLeft
                    output[rowStart + 1 + index] = current[index] &- UInt8(predictor)
                }
                swap(&previous, &current)
            }
        }
        return output
    }

    private static func compress(_ bytes: [UInt8]) throws(WebImageError) -> [UInt8] {
        var length = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBufferPointer { destination in
            bytes.withUnsafeBufferPointer { source in
                compress2(destination.baseAddress, &length, source.baseAddress, uLong(source.count), 6)
            }
        }
        guard status == Z_OK else { throw WebImageError(.encodingFailed, "zlib failed (\(status))") }
        return Array(output.prefix(Int(length)))
    }
}
