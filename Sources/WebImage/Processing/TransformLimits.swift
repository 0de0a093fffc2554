/// The largest image a transformer may produce, checked before any pixel is allocated.
///
/// Transformers that can make an image larger than their input (``Resize`` when enlarging, ``Rotate`` by an angle
/// that is not a multiple of 90 degrees) refuse a result beyond ``maxOutputPixels`` with
/// ``WebImageError/Code/tooLarge``, naming the limit, instead of allocating it.
public struct TransformLimits: Sendable, Hashable {
    /// The most pixels one output frame may have; default 100 megapixels, the decoder's default limit.
    public var maxOutputPixels: Int

    /// Limits with the given maximum output size.
    public init(maxOutputPixels: Int = 100_000_000) {
        self.maxOutputPixels = maxOutputPixels
    }

    /// The default limits.
    public static let `default` = TransformLimits()

    /// A computed `width` x `height` as a pixel size, rounded to whole pixels and at least 1x1, or a typed error when
    /// a side is not a number or the size exceeds ``maxOutputPixels``. `operation` names the transform in the error.
    func size(width: Double, height: Double, for operation: String) throws(WebImageError) -> PixelSize {
        guard !width.isNaN, !height.isNaN else {
            throw WebImageError(.invalidArgument, "\(operation) computed a size that is not a number")
        }
        let (w, h) = (max(1, width.rounded()), max(1, height.rounded()))
        let limit = Double(maxOutputPixels)
        guard w <= limit, h <= limit, w * h <= limit else {
            let shown = w * h < 1e15 ? "\(Int(w))x\(Int(h))" : "\(w)x\(h)"
            throw WebImageError(
                .tooLarge, "\(operation) to \(shown) exceeds the limit of \(maxOutputPixels) output pixels")
        }
        return PixelSize(width: Int(w), height: Int(h))
    }
}
