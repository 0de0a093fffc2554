import WebImage

/// imgproxy's `scaleOnLoad` arithmetic: how much a source may be shrunk while it is decoded, and how the crop and the
/// scales change once it was, so that every later step works on the smaller image.
///
/// After a shrink on load imgproxy crops the smaller image by the crop size divided by the shrink and rounded, and
/// scales by what is left of the scale: its result can be a pixel larger or smaller than the same request on the
/// full-size image. The server follows it, so results have imgproxy's sizes.
struct ScaleOnLoad {
    /// The image the crop applies to: the decoded size (upright, rotated), or the source size when not shrunk.
    var image: PixelSize
    /// The crop (imgproxy's `CropWidth` and `CropHeight`, 0 = none) in ``image``'s pixels.
    var crop: PixelSize
    /// The crop gravity, its absolute offsets in ``image``'s pixels.
    var gravity: GravityOption
    /// The horizontal scale from ``image`` (after the crop) to the scaled size.
    var wScale: Double
    /// The vertical scale, as ``wScale``.
    var hScale: Double

    /// The values for an image decoded at `loaded` from a source of `source` (both upright and rotated), given the
    /// crop, gravity and scales planned for the full size; `loaded` equal to `source` (or not smaller) keeps them.
    init(
        source: PixelSize, loaded: PixelSize, crop: PixelSize, gravity: GravityOption, wScale: Double,
        hScale: Double
    ) {
        (image, self.crop, self.gravity, self.wScale, self.hScale) = (source, crop, gravity, wScale, hScale)
        guard loaded != source, loaded.width > 0, loaded.height > 0, loaded.width <= source.width,
            loaded.height <= source.height
        else { return }
        let wPreshrink = Double(source.width) / Double(loaded.width)
        let hPreshrink = Double(source.height) / Double(loaded.height)
        image = loaded
        self.wScale *= wPreshrink
        self.hScale *= hPreshrink
        // An exact shrink leaves nothing to scale.
        if loaded.width == PixelMath.scale(loaded.width, self.wScale) { self.wScale = 1 }
        if loaded.height == PixelMath.scale(loaded.height, self.hScale) { self.hScale = 1 }
        if crop.width > 0 { self.crop.width = max(1, PixelMath.shrink(crop.width, wPreshrink)) }
        if crop.height > 0 { self.crop.height = max(1, PixelMath.shrink(crop.height, hPreshrink)) }
        // Absolute offsets follow the shrink, rounded so that they stay absolute; relative ones and focus points stay.
        if gravity.kind != .focusPoint {
            if abs(gravity.x) >= 1 { self.gravity.x = (gravity.x / wPreshrink).rounded(.toNearestOrEven) }
            if abs(gravity.y) >= 1 { self.gravity.y = (gravity.y / hPreshrink).rounded(.toNearestOrEven) }
        }
    }

    /// imgproxy's preshrink: the smaller of the two shrinks that the scales make of the whole `source` (not of the
    /// crop, so that a single requested side does not shrink too much); 1 when there is nothing to shrink.
    static func preshrink(source: PixelSize, wScale: Double, hScale: Double) -> Double {
        let width = PixelMath.scale(source.width, wScale)
        let height = PixelMath.scale(source.height, hScale)
        guard width > 0, height > 0 else { return 1 }
        let shrink = min(Double(source.width) / Double(width), Double(source.height) / Double(height))
        return shrink.isFinite ? shrink : 1
    }

    /// imgproxy's `calcJpegShink`: the JPEG DCT shrink (8, 4, 2 or 1) for `preshrink`.
    static func jpegShrink(_ preshrink: Double) -> Int {
        preshrink >= 8 ? 8 : preshrink >= 4 ? 4 : preshrink >= 2 ? 2 : 1
    }

}
