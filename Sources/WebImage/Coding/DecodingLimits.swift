/// Upper bounds a decoder checks against the image header before it allocates anything.
///
/// They protect the process from decompression bombs: a few hundred bytes that declare gigapixels.
public struct DecodingLimits: Sendable, Hashable {
    /// The most pixels one frame may have, after any shrink-on-load. Default: 100 megapixels.
    public var maxPixelsPerFrame: Int
    /// The most bytes all decoded frames of one image may take together. Default: 1 GiB.
    public var maxTotalBytes: Int
    /// The most frames an animation may have. Default: 10,000.
    public var maxFrames: Int

    /// Creates limits; the defaults are those of ``default``.
    public init(maxPixelsPerFrame: Int = 100_000_000, maxTotalBytes: Int = 1 << 30, maxFrames: Int = 10_000) {
        self.maxPixelsPerFrame = maxPixelsPerFrame
        self.maxTotalBytes = maxTotalBytes
        self.maxFrames = maxFrames
    }

    /// 100 megapixels per frame, 1 GiB in all, 10,000 frames.
    public static let `default` = DecodingLimits()

    /// Throws ``WebImageError/Code/tooLarge`` unless a frame of `width` by `height` fits.
    public func checkFrame(width: Int, height: Int) throws(WebImageError) {
        guard width > 0, height > 0 else {
            throw WebImageError(.corruptData, "the header declares an empty \(width)x\(height) image")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixelsPerFrame else {
            throw WebImageError(
                .tooLarge, "\(width)x\(height) exceeds the limit of \(maxPixelsPerFrame) pixels per frame")
        }
        guard pixels * 4 <= maxTotalBytes else {
            throw WebImageError(.tooLarge, "\(width)x\(height) exceeds the limit of \(maxTotalBytes) decoded bytes")
        }
    }

    /// As ``checkFrame(width:height:)``, for a frame kept at 16 bits per sample: its 8 bytes a pixel and the 4 of its
    /// 8-bit rounding must fit in ``maxTotalBytes``.
    public func checkDeepFrame(width: Int, height: Int) throws(WebImageError) {
        try checkFrame(width: width, height: height)
        let (bytes, overflow) = (width * height).multipliedReportingOverflow(by: 12)
        guard !overflow, bytes <= maxTotalBytes else {
            throw WebImageError(.tooLarge, "\(width)x\(height) at 16 bits exceeds the limit of \(maxTotalBytes) bytes")
        }
    }

    /// Throws ``WebImageError/Code/tooLarge`` unless `frames` frames of `width` by `height` fit.
    public func checkAnimation(width: Int, height: Int, frames: Int) throws(WebImageError) {
        try checkFrame(width: width, height: height)
        guard frames <= maxFrames else {
            throw WebImageError(.tooLarge, "\(frames) frames exceed the limit of \(maxFrames)")
        }
        let (total, overflow) = (width * height * 4).multipliedReportingOverflow(by: max(frames, 1))
        guard !overflow, total <= maxTotalBytes else {
            throw WebImageError(
                .tooLarge, "\(frames) frames of \(width)x\(height) exceed the limit of \(maxTotalBytes) decoded bytes")
        }
    }
}
