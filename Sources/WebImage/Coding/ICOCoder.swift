import Foundation

/// ICO and CUR decoding, in Swift, and ICO encoding.
///
/// Decodes the largest image of the directory (by pixels, then bits per pixel): a PNG, with ``PNGCoder`` (first frame),
/// or a bitmap without file header as ``BMPCoder`` reads them, whose 1-bit AND mask makes pixels transparent unless
/// the bitmap has an alpha channel of its own. An entry whose bytes are not in the file after the directory is a
/// ``WebImageError``. ``info(of:)`` reads the directory and the chosen image's header. Both kinds sniff as
/// ``ImageFormat/ico``.
///
/// Encodes, as imgproxy does, one PNG image in an icon directory; sizes of 256 pixels and more are written as 0 in the
/// directory, which has a byte for each.
public struct ICOCoder: ImageCoding {
    /// Creates the coder.
    public init() {}

    public func canDecode(_ format: ImageFormat) -> Bool { format == .ico }

    public func canEncode(_ format: ImageFormat) -> Bool { format == .ico }

    public func info(of data: Data) throws(WebImageError) -> ImageInfo {
        let entry = try data.withImageBytes { bytes throws(WebImageError) in try ICODirectory(bytes).best }
        return ImageInfo(format: .ico, width: entry.width, height: entry.height)
    }

    public func decode(_ data: Data, options: DecodingOptions) throws(WebImageError) -> Image {
        try data.withImageBytes { bytes throws(WebImageError) in
            let entry = try ICODirectory(bytes).best
            let image = UnsafeRawBufferPointer(rebasing: bytes[entry.range])
            guard entry.isPNG else { return try Self.decodeBitmap(image, options: options) }
            var still = options
            still.firstFrameOnly = true
            let png = try PNGCoder().decode(Data(image), options: still)
            return Image(
                frames: png.frames, format: .ico, sourceOrientation: png.sourceOrientation,
                colorProfile: png.colorProfile)
        }
    }

    public func encode(_ image: Image, as format: ImageFormat, options: EncodingOptions) throws(WebImageError) -> Data {
        var still = options
        still.firstFrameOnly = true
        let png = try PNGCoder().encode(image, as: .png, options: still)
        guard png.count <= Int(UInt32.max) - 22 else {
            throw WebImageError(.encodingFailed, "a PNG of \(png.count) bytes does not fit in an ICO file")
        }
        var data = Data(capacity: 22 + png.count)
        func put(_ value: Int, _ bytes: Int) {
            for index in 0..<bytes { data.append(UInt8(truncatingIfNeeded: value >> (index * 8))) }
        }
        put(0, 2)
        put(1, 2)  // an icon
        put(1, 2)  // one image
        put(image.width >= 256 ? 0 : image.width, 1)
        put(image.height >= 256 ? 0 : image.height, 1)
        put(0, 2)  // no palette, reserved
        put(1, 2)  // planes
        put(32, 2)  // bits per pixel
        put(png.count, 4)
        put(22, 4)
        data.append(png)
        return data
    }

    /// Decodes an entry's bitmap and applies its AND mask, unless the bitmap carries an alpha channel.
    private static func decodeBitmap(
        _ bitmap: UnsafeRawBufferPointer, options: DecodingOptions
    ) throws(WebImageError) -> Image {
        let header = try BMPHeader(icon: bitmap)
        guard header.storage != .runLength else {
            throw WebImageError(.unsupportedFormat, "icons with run-length compressed bitmaps are not supported")
        }
        var (pixels, hasAlpha) = try BMPPixels.decode(header, bitmap, limits: options.limits)
        let color = ColorHandling(profile: try header.profile(in: bitmap), options: options)
        try pixels.withUnsafeMutableBufferPointer { output throws(WebImageError) in
            if !hasAlpha { try applyMask(header, bitmap, to: output) }
            color.apply(output)
        }
        return Image(
            frames: [ImageFrame(pixels: PixelBuffer(width: header.width, height: header.height, bytes: pixels))],
            format: .ico, colorProfile: color.keptProfile)
    }

    /// Makes transparent the pixels whose bit is set in the AND mask that follows the colour bitmap.
    private static func applyMask(
        _ header: BMPHeader, _ bitmap: UnsafeRawBufferPointer, to output: UnsafeMutableBufferPointer<UInt8>
    ) throws(WebImageError) {
        // The colour rows are known to fit (they were decoded), so these sums do not overflow.
        let start = header.pixelOffset + header.stride * header.height
        let stride = (header.width + 31) / 32 * 4
        let (size, overflow) = stride.multipliedReportingOverflow(by: header.height)
        guard !overflow, size <= bitmap.count - start else {
            throw WebImageError(.truncatedData, "the ICO data ends inside an image's AND mask")
        }
        for row in 0..<header.height {
            let source = start + row * stride
            var target = header.outputRow(row) * header.width * 4
            for x in 0..<header.width {
                if bitmap[source + x / 8] & (0x80 >> (x % 8)) != 0 { BMPPixels.put(.clear, output, at: target) }
                target += 4
            }
        }
    }
}
