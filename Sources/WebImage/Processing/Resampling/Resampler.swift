import Foundation

/// Resizes pixels by separable convolution: a horizontal pass, then a vertical one.
///
/// Pixels are premultiplied by alpha before filtering and divided back after, so transparent pixels lend no colour
/// to their neighbours (no dark fringes). Arithmetic is on `SIMD4<Float>` (one vector per RGBA pixel); rows are
/// split across cores for large images.
public struct Resampler: Sendable {
    /// The reconstruction filter.
    public let filter: ResamplingFilter
    /// Whether colour is filtered in linear light: sRGB's curve is undone before filtering and applied again after,
    /// so that averages are averages of light (as libvips' resize in scRGB, imgproxy's
    /// `IMGPROXY_USE_LINEAR_COLORSPACE`). Default `false`: filtering on the encoded values, as most tools do.
    public let linearLight: Bool

    /// Creates a resampler with `filter` (Lanczos3 by default), in linear light when `linearLight` is set.
    public init(filter: ResamplingFilter = .lanczos3, linearLight: Bool = false) {
        self.filter = filter
        self.linearLight = linearLight
    }

    /// `source` resampled to `size`. Pass `opaque: true` when every pixel is opaque to skip premultiplication.
    public func resample(_ source: PixelBuffer, to size: PixelSize, opaque: Bool? = nil) -> PixelBuffer {
        precondition(size.width > 0 && size.height > 0, "resampling needs a positive size")
        if size == source.size { return source }
        return SeparableConvolution(
            horizontal: ResamplingWeights.cached(inputSize: source.width, outputSize: size.width, filter: filter),
            vertical: ResamplingWeights.cached(inputSize: source.height, outputSize: size.height, filter: filter)
        ).apply(to: source, opaque: opaque ?? source.isOpaque, linear: linearLight)
    }

    /// `source`, 16-bit samples, resampled to `size` at 16 bits, as ``resample(_:to:opaque:)`` resamples 8-bit ones.
    public func resample(_ source: PixelBuffer16, to size: PixelSize, opaque: Bool? = nil) -> PixelBuffer16 {
        precondition(size.width > 0 && size.height > 0, "resampling needs a positive size")
        if size == source.size { return source }
        return SeparableConvolution(
            horizontal: ResamplingWeights.cached(inputSize: source.width, outputSize: size.width, filter: filter),
            vertical: ResamplingWeights.cached(inputSize: source.height, outputSize: size.height, filter: filter)
        ).apply(to: source, opaque: opaque ?? source.isOpaque, linear: linearLight)
    }
}
