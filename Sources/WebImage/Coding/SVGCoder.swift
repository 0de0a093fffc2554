import Foundation

/// SVG decoding with librsvg and cairo: the document is rendered at the size the request needs.
///
/// A vector has no pixels to shrink: with a ``DecodingOptions/targetSize`` the render is the smallest size with the
/// document's aspect ratio that covers it, smaller or larger than the document's own size; without one it is the
/// document's own size (``ImageInfo`` reports it): its `width` and `height` when absolute, else its `viewBox`, else
/// the bounds of what it draws, else 100x100. Lengths are CSS pixels at 96 dpi. The render's size is checked
/// against ``DecodingOptions/limits`` before its pixels are allocated (``WebImageError/Code/tooLarge``).
///
/// **Nothing outside the bytes is read.** The document is parsed from memory with no base file or URL, so librsvg
/// loads no file and no URL it references (only `data:` URLs, which are part of the bytes); external entities and
/// parameter entities are refused, and internal entities are measured before parsing so that an entity bomb is a
/// typed error (`SVGPrecheck`). Scripts are never run (librsvg has no script engine); text uses the system's
/// fonts. Every call makes its own librsvg handle, so the coder is safe from any thread. librsvg's and GLib's log
/// messages are dropped, never written to stderr.
///
/// **Bounded work.** The bytes (``maxBytes``) and the elements once entities expand (``maxElements``) are bounded
/// before parsing, librsvg keeps its own limits on references and nesting, and parsing and rendering run on a thread
/// of their own, abandoned after ``renderTimeout`` with ``WebImageError/Code/timedOut`` (librsvg's renders cannot be
/// cancelled; see `SVGWorker`).
///
/// SVG is not encoded.
public struct SVGCoder: ImageCoding {
    /// The longest a parse and render may take. Default: 10 seconds.
    public let renderTimeout: Duration
    /// The most bytes a document may have. Default: 10 MiB.
    public let maxBytes: Int
    /// The most elements a document may have, counted once its entities are expanded. Default: 100,000.
    public let maxElements: Int

    /// Creates the coder with the given bounds; a bound below 1 (or a negative timeout) refuses every document.
    public init(renderTimeout: Duration = .seconds(10), maxBytes: Int = 10 << 20, maxElements: Int = 100_000) {
        self.renderTimeout = renderTimeout
        self.maxBytes = maxBytes
        self.maxElements = maxElements
    }

    public func canDecode(_ format: ImageFormat) -> Bool { format == .svg }

    public func info(of data: Data) throws(WebImageError) -> ImageInfo {
        try precheck(data)
        let size = try SVGWorker.run(deadline: renderTimeout) { () throws(WebImageError) in
            try data.withImageBytes { bytes throws(WebImageError) in try SVGDocument(bytes).layout() }
        }
        let (width, height) = try Self.pixels(SVGRasterizer.renderSize(intrinsic: size, target: nil))
        return ImageInfo(format: .svg, width: width, height: height, frameCount: 1, hasAlpha: true)
    }

    public func decode(_ data: Data, options: DecodingOptions) throws(WebImageError) -> Image {
        try precheck(data)
        let pixels = try SVGWorker.run(deadline: renderTimeout) { () throws(WebImageError) in
            try data.withImageBytes { bytes throws(WebImageError) in
                let document = try SVGDocument(bytes)
                let intrinsic = try document.layout()
                let (width, height) = try Self.pixels(
                    SVGRasterizer.renderSize(intrinsic: intrinsic, target: options.targetSize))
                try options.limits.checkFrame(width: width, height: height)
                return try SVGRasterizer.render(document, intrinsic: intrinsic, width: width, height: height)
            }
        }
        return Image(frames: [ImageFrame(pixels: pixels)], format: .svg)
    }

    private func precheck(_ data: Data) throws(WebImageError) {
        let check = SVGPrecheck(maxBytes: maxBytes, maxElements: maxElements, maxExpandedBytes: maxBytes)
        try data.withImageBytes { bytes throws(WebImageError) in try check.check(bytes) }
    }

    /// A render size in whole pixels, each at least 1; `tooLarge` past what an `Int32` (cairo's sizes) holds.
    private static func pixels(_ size: (Double, Double)) throws(WebImageError) -> (Int, Int) {
        let (width, height) = size
        guard width.isFinite, height.isFinite, width < Double(Int32.max), height < Double(Int32.max) else {
            throw WebImageError(.tooLarge, "an SVG render of \(width)x\(height) pixels is too large")
        }
        return (max(1, Int(width)), max(1, Int(height)))
    }
}
