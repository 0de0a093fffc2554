import Foundation
import WebImage

/// The entry points of the libFuzzer targets in `Fuzz/`, here so that the regression tests replay every input a
/// fuzzer ever crashed on through exactly the same code.
///
/// Each takes the fuzzer's bytes, runs one library entry point and ignores typed errors: only a trap, a sanitizer
/// report or a broken promise (a precondition below) is a finding.
public enum FuzzEntries {
    /// Small enough that a claimed-huge image is refused quickly, large enough for every corpus file.
    public static let limits = DecodingLimits(maxPixelsPerFrame: 16_000_000, maxTotalBytes: 256 << 20, maxFrames: 200)

    /// A full decode of every frame, keeping the EXIF block and XMP packet (so their readers see every input); when
    /// the last byte is odd, also keeping 16-bit samples and the colour profile (the 16-bit paths of the PNG, TIFF,
    /// AVIF, HEIC and JPEG XL decoders), then encoding a first frame kept at 16 bits again as PNG and TIFF (their 16-bit writers).
    public static func decode(_ data: Data) {
        let deep = (data.last ?? 0) & 1 == 1
        var options = DecodingOptions(limits: limits, keepsColorProfile: deep, keepsMetadata: true)
        options.keepsHighBitDepth = deep
        guard let image = try? ImageCoders.default.decode(data, options: options), image.frames[0].deepPixels != nil
        else { return }
        let still = Image(frames: [image.frames[0]], colorProfile: image.colorProfile)
        for format in [ImageFormat.png, .tiff] {
            _ = try? ImageCoders.default.encode(still, as: format, options: EncodingOptions(firstFrameOnly: true))
        }
    }

    /// A first-frame shrink-on-load decode to a target of 1 to 256 pixels a side, taken from the first two bytes; an
    /// odd first byte asks for libvips' shrink factor instead (``DecodingOptions/shrinkFactor``: the second byte / 16).
    /// An odd second byte also keeps 16-bit samples (the HEIF thumbnails' 16-bit path).
    public static func thumbnail(_ data: Data) {
        guard data.count > 2 else { return }
        let (first, second) = (data[data.startIndex], data[data.startIndex + 1])
        let target = PixelSize(width: Int(first) + 1, height: Int(second) + 1)
        let factor = first % 2 == 1 ? Double(second) / 16 : nil
        var options = DecodingOptions(targetSize: target, firstFrameOnly: true, limits: limits, shrinkFactor: factor)
        options.keepsHighBitDepth = second % 2 == 1
        guard let image = try? ImageCoders.default.decode(data.dropFirst(2), options: options) else { return }
        precondition(image.width > 0 && image.height > 0, "a decode returned an empty image")
    }

    /// The header-only information.
    public static func info(_ data: Data) {
        guard let info = try? ImageCoders.default.info(of: data) else { return }
        precondition(info.width > 0 && info.height > 0, "info returned an empty size")
    }

    /// JPEG XL alone, through ``JXLCoder`` whatever the bytes sniff as (so that inputs whose signature a mutation
    /// broke still reach libjxl): the header information (counting frames), then a decode of every frame with the
    /// colour profile and the metadata boxes kept.
    public static func jxl(_ data: Data) {
        let coder = JXLCoder()
        if let info = try? coder.info(of: data) {
            precondition(info.width > 0 && info.height > 0 && info.frameCount > 0, "JPEG XL info returned nothing")
        }
        let options = DecodingOptions(limits: limits, keepsColorProfile: true, keepsMetadata: true)
        guard let image = try? coder.decode(data, options: options) else { return }
        precondition(image.width > 0 && image.height > 0, "a JPEG XL decode returned an empty image")
    }

    /// A progressive decode of a prefix, as while bytes arrive: the first byte picks how much has arrived.
    public static func partial(_ data: Data) {
        guard data.count > 1 else { return }
        let image = data.dropFirst()
        let arrived = image.count * (Int(data[data.startIndex]) + 1) / 256
        _ = try? ImageCoders.default.decodePartial(
            Data(image.prefix(arrived)), options: DecodingOptions(limits: limits))
    }

    /// An SVG render to a target of 1 to 256 pixels a side taken from the first two bytes (the document's own size
    /// when both are 0), after the header-only information; with tighter bounds than the default coder's, so that
    /// each input runs in milliseconds.
    public static func svg(_ data: Data) {
        guard data.count > 2 else { return }
        let coder = SVGCoder(renderTimeout: .seconds(10), maxBytes: 1 << 20, maxElements: 10_000)
        let document = Data(data.dropFirst(2))
        if let info = try? coder.info(of: document) {
            precondition(info.width > 0 && info.height > 0, "info returned an empty size")
        }
        let (width, height) = (Int(data[data.startIndex]), Int(data[data.startIndex + 1]))
        let target = width == 0 && height == 0 ? nil : PixelSize(width: width + 1, height: height + 1)
        let options = DecodingOptions(targetSize: target, limits: limits)
        guard let image = try? coder.decode(document, options: options) else { return }
        precondition(image.width > 0 && image.height > 0, "a render returned an empty image")
    }

    /// A decode (first frame, at most 128 pixels a side so that each input runs in milliseconds, keeping the colour
    /// profile and metadata), then four transformers whose kinds and parameters come from the first 12 bytes, then a
    /// PNG encode that writes the profile and metadata back.
    public static func transform(_ data: Data) {
        guard data.count > 12 else { return }
        var parameters = FuzzParameters(Array(data.prefix(12)))
        let pipeline = TransformerPipeline((0..<4).map { _ in parameters.transformer() })
        let side = PixelSize(width: 128, height: 128)
        let small = DecodingOptions(
            targetSize: side, firstFrameOnly: true, limits: limits, keepsColorProfile: true, keepsMetadata: true)
        guard let decoded = try? ImageCoders.default.decode(data.dropFirst(12), options: small),
            let image = try? Resize(to: side).transform(decoded)
        else { return }
        guard let transformed = try? pipeline.transform(image) else { return }
        precondition(transformed.width > 0 && transformed.height > 0, "a transform returned an empty image")
        _ = try? ImageCoders.default.encode(
            transformed, as: .png, options: EncodingOptions(embedsColorProfile: true, embedsMetadata: true))
    }
}
