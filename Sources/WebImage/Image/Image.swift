import Foundation

/// A decoded image: one frame for a still, several for an animation.
///
/// Immutable and `Sendable`. Pixels are 8-bit RGBA with straight alpha (see ``PixelBuffer``), with 16-bit ones beside
/// them when a decoder kept a high bit depth (``ImageFrame/deepPixels``), already upright
/// (EXIF orientation applied by the decoder). Every frame has the image's pixel size.
public final class Image: Sendable {
    /// The frames, at least one. A still image has exactly one.
    public let frames: [ImageFrame]
    /// How many times an animation plays; 0 means forever. 0 for a still image.
    public let loopCount: Int
    /// The format the image was decoded from (``ImageFormat/unknown`` for images made in memory).
    public let format: ImageFormat
    /// Points-per-pixel scale (as `@2x` assets have 2); 1 by default.
    public let scale: Double
    /// The orientation the source file declared, already applied to ``frames``.
    public let sourceOrientation: ImageOrientation
    /// Whether every pixel of every frame is opaque.
    public let isOpaque: Bool
    /// The ICC profile of the pixels' colour space, when a decoder was asked to keep it
    /// (``DecodingOptions/keepsColorProfile``); `nil` means sRGB.
    public let colorProfile: Data?
    /// The source's EXIF block (a TIFF structure, without the `Exif\0\0` prefix), when a decoder was asked to keep
    /// metadata (``DecodingOptions/keepsMetadata``); its orientation tag says 1 (upright) when the decoder applied
    /// the orientation. Encoders write it when ``EncodingOptions/embedsMetadata`` is set.
    public let exif: Data?
    /// The source's XMP packet, kept and written under the same options as ``exif``.
    public let xmp: Data?
    /// The source's IPTC: the Photoshop image resources of a JPEG's `APP13` segment (without its `Photoshop 3.0\0`
    /// prefix), kept under the same options as ``exif`` and written by the JPEG encoder.
    public let iptc: Data?

    /// Creates an image from frames that all share one size.
    public init(
        frames: [ImageFrame], loopCount: Int = 0, format: ImageFormat = .unknown, scale: Double = 1,
        sourceOrientation: ImageOrientation = .up, isOpaque: Bool? = nil, colorProfile: Data? = nil,
        exif: Data? = nil, xmp: Data? = nil, iptc: Data? = nil
    ) {
        precondition(!frames.isEmpty, "an image needs at least one frame")
        precondition(frames.allSatisfy { $0.pixels.size == frames[0].pixels.size }, "frames differ in size")
        self.frames = frames
        self.loopCount = loopCount
        self.format = format
        self.scale = scale
        self.sourceOrientation = sourceOrientation
        self.isOpaque = isOpaque ?? frames.allSatisfy { $0.pixels.isOpaque }
        self.colorProfile = colorProfile
        self.exif = exif
        self.xmp = xmp
        self.iptc = iptc
    }

    /// A still image of one pixel buffer.
    public convenience init(pixels: PixelBuffer, format: ImageFormat = .unknown, scale: Double = 1) {
        self.init(frames: [ImageFrame(pixels: pixels)], format: format, scale: scale)
    }

    /// The first frame's pixels: the whole image for a still.
    public var pixels: PixelBuffer { frames[0].pixels }
    /// Width in pixels.
    public var width: Int { frames[0].pixels.width }
    /// Height in pixels.
    public var height: Int { frames[0].pixels.height }
    /// Size in pixels.
    public var size: PixelSize { frames[0].pixels.size }
    /// Whether the image has more than one frame.
    public var isAnimated: Bool { frames.count > 1 }
    /// Total play time of one loop, in seconds.
    public var duration: Double { frames.reduce(0) { $0 + $1.duration } }
    /// Memory cost: the bytes of all frames' pixels, 8-bit and 16-bit.
    public var cost: Int { frames.reduce(0) { $0 + $1.pixels.bytes.count + ($1.deepPixels?.samples.count ?? 0) * 2 } }

    /// A copy with other frames and the same metadata (for transformers).
    public func withFrames(_ frames: [ImageFrame]) -> Image {
        Image(
            frames: frames, loopCount: loopCount, format: format, scale: scale, sourceOrientation: sourceOrientation,
            colorProfile: colorProfile, exif: exif, xmp: xmp, iptc: iptc)
    }
}
