import Foundation

/// Turns one image into another: resize, crop, round corners, rotate, tint, blur, …
///
/// Transformers are values: their ``key`` identifies the transformation and its parameters, and goes into the
/// cache key of the transformed image, so two transformers with the same key must produce the same pixels.
public protocol ImageTransforming: Sendable {
    /// A stable identifier of the transformation and its parameters, e.g. `resize(720x588,cover,lanczos3)`.
    var key: String { get }

    /// The transformed image; every frame of an animation is transformed, durations and loop count kept.
    func transform(_ image: Image) throws(WebImageError) -> Image

    /// The smallest decoded size this transformer needs from a source of `original` pixels to give the same result
    /// as from the full source, for shrink-on-load; `nil` (the default) when it needs every pixel.
    func minimumSourceSize(for original: PixelSize) -> PixelSize?

    /// The transformed image from `image`, a shrink-on-load decode of a source of `original` pixels made no smaller
    /// than ``minimumSourceSize(for:)``; the result must equal ``transform(_:)-(Image)`` of the full source in size.
    /// The default transforms `image` as it is.
    func transform(_ image: Image, shrunkFrom original: PixelSize) throws(WebImageError) -> Image
}

extension ImageTransforming {
    /// `nil`: the transformer needs the full source, so nothing is shrunk on load.
    public func minimumSourceSize(for original: PixelSize) -> PixelSize? { nil }

    /// Transforms `image` as it is.
    public func transform(_ image: Image, shrunkFrom original: PixelSize) throws(WebImageError) -> Image {
        try transform(image)
    }
}

/// A transformer that works on one frame's pixels at a time.
public protocol PixelTransforming: ImageTransforming {
    /// The transformed pixels of one frame.
    func transform(_ pixels: PixelBuffer) throws(WebImageError) -> PixelBuffer
}

extension PixelTransforming {
    public func transform(_ image: Image) throws(WebImageError) -> Image {
        var frames: [ImageFrame] = []
        frames.reserveCapacity(image.frames.count)
        for frame in image.frames {
            frames.append(ImageFrame(pixels: try transform(frame.pixels), duration: frame.duration))
        }
        return image.withFrames(frames)
    }
}

extension Double {
    /// This number in a transformer key: integers without a fraction, others with up to three decimals.
    var keyDescription: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(format: "%.3f", self)
    }
}

extension RGBA {
    /// This colour in a transformer key, as `#rrggbbaa`.
    var keyDescription: String { String(format: "#%02x%02x%02x%02x", red, green, blue, alpha) }
}
