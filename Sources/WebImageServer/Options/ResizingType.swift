/// How the image is fitted to the requested width and height (imgproxy's `resizing_type`).
public enum ResizingType: String, Sendable, Hashable, CaseIterable {
    /// Keeps the whole image inside the requested size.
    case fit
    /// Covers the requested size and crops the overflow by gravity.
    case fill
    /// As `fill`, but when the image is smaller than the requested size, crops to its aspect ratio instead of
    /// enlarging.
    case fillDown = "fill-down"
    /// Scales each side to the requested size, changing the aspect ratio.
    case force
    /// `fill` when the source and the requested size have the same orientation, `fit` otherwise.
    case auto
}
