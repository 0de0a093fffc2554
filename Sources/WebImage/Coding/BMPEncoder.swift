import Foundation

/// Writes BMP files: 24-bit BGR under a `BITMAPINFOHEADER` for opaque images, 32-bit BGRA with `BI_BITFIELDS` masks
/// under a `BITMAPV5HEADER` for images with transparency; rows bottom-up, padded to 4 bytes.
///
/// The first frame of an animation is written. With ``EncodingOptions/embedsColorProfile`` an image's ICC profile is
/// embedded after the pixels (a V5 header's `PROFILE_EMBEDDED`, opaque images included); otherwise the pixels are
/// converted to sRGB and a V5 header says `LCS_sRGB`. A 32-bit image whose alpha is 0 everywhere reads back opaque,
/// as browsers (and ``BMPCoder``) take such files.
enum BMPEncoder {
    /// The BMP bytes of `image`'s first frame.
    static func encode(_ image: Image, options: EncodingOptions) throws(WebImageError) -> Data {
        var firstFrame = options
        firstFrame.firstFrameOnly = true
        let color = EncodingColor(image, options: firstFrame)
        let pixels = color.frames[0].pixels
        let profile = color.profile ?? Data()
        let alpha = !pixels.isOpaque
        let version5 = alpha || !profile.isEmpty
        let bytesPerPixel = alpha ? 4 : 3
        let stride = (pixels.width * bytesPerPixel + 3) & ~3
        let headerSize = version5 ? 124 : 40
        let pixelOffset = 14 + headerSize
        let (imageSize, overflow) = stride.multipliedReportingOverflow(by: pixels.height)
        // Rows that fit 32 bits also keep the width and height within the header's signed 32-bit fields.
        guard !overflow, pixelOffset + imageSize + profile.count <= Int(UInt32.max) else {
            throw WebImageError(.encodingFailed, "\(pixels.width)x\(pixels.height) is too large for a BMP file")
        }
        var data = Data(capacity: pixelOffset + imageSize + profile.count)
        func put(_ value: Int, _ bytes: Int = 4) {
            for index in 0..<bytes { data.append(UInt8(truncatingIfNeeded: value >> (index * 8))) }
        }
        data.append(contentsOf: Array("BM".utf8))
        put(pixelOffset + imageSize + profile.count)
        put(0)
        put(pixelOffset)
        put(headerSize)
        put(pixels.width)
        put(pixels.height)
        put(1, 2)
        put(bytesPerPixel * 8, 2)
        put(alpha ? 3 : 0)  // BI_BITFIELDS, BI_RGB
        put(imageSize)
        put(2835)  // 72 dpi, in pixels per metre
        put(2835)
        put(0)  // colours used
        put(0)  // important colours
        if version5 {
            for mask in alpha ? [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0xFF00_0000] : [0, 0, 0, 0] { put(mask) }
            put(Int(profile.isEmpty ? BMPHeader.sRGB : BMPHeader.embeddedProfile))
            for _ in 0..<12 { put(0) }  // endpoints (9 numbers) and gammas (3), unused by both types
            put(4)  // LCS_GM_IMAGES: perceptual
            put(profile.isEmpty ? 0 : headerSize + imageSize)  // from the start of the V5 header
            put(profile.count)
            put(0)
        }
        data.append(contentsOf: rows(pixels, stride: stride, bytesPerPixel: bytesPerPixel, count: imageSize))
        data.append(profile)
        return data
    }

    /// The pixels as BMP rows: bottom-up, BGR or BGRA, padded with zeros to `stride` bytes.
    private static func rows(_ pixels: PixelBuffer, stride: Int, bytesPerPixel: Int, count: Int) -> [UInt8] {
        var rows = [UInt8](repeating: 0, count: count)
        pixels.bytes.withUnsafeBufferPointer { source in
            rows.withUnsafeMutableBufferPointer { output in
                for row in 0..<pixels.height {
                    var from = (pixels.height - 1 - row) * pixels.bytesPerRow
                    var to = row * stride
                    for _ in 0..<pixels.width {
                        output[to] = source[from + 2]
                        output[to + 1] = source[from + 1]
                        output[to + 2] = source[from]
                        if bytesPerPixel == 4 { output[to + 3] = source[from + 3] }
                        from += 4
                        to += bytesPerPixel
                    }
                }
            }
        }
        return rows
    }
}
