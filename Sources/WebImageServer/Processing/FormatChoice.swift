import WebImage

/// The result's format when the URL names none and `Accept` chose none, as imgproxy's `determineOutputFormat`
/// decides it: the source's format when it is one of the preferred formats (imgproxy's `IMGPROXY_PREFERRED_FORMATS`,
/// JPEG, PNG and GIF by default), else the first preferred format that can hold the result: one that animates for an
/// animation, one with alpha when transparency is expected (the image has an alpha channel, is padded or is extended,
/// and no `background` flattens it; `extend_aspect_ratio` does not count, as in imgproxy), else the first preferred
/// format.
struct FormatChoice: Sendable {
    /// The formats the server writes (HEIC only where libheif has its HEVC encoder), and of those the ones that animate
    /// and the ones with alpha.
    static let writable: [ImageFormat] = [.jpeg, .png, .webp, .avif, .gif, .bmp, .ico, .tiff, .jxl, .heic].filter {
        ImageCoders.default.canEncode($0)
    }
    static let animatable: Set<ImageFormat> = [.webp, .gif]
    static let withAlpha: Set<ImageFormat> = [.png, .webp, .avif, .gif, .bmp, .ico, .tiff, .jxl, .heic]

    /// The preferred formats, in order; never empty, all writable.
    let preferred: [ImageFormat]

    /// A choice among `preferred`, keeping the writable ones; imgproxy's default when none is.
    init(preferred: [ImageFormat]) {
        let usable = preferred.filter(Self.writable.contains)
        self.preferred = usable.isEmpty ? Self.imgproxyDefault : usable
    }

    /// imgproxy's default: JPEG, PNG, GIF.
    static let imgproxyDefault: [ImageFormat] = [.jpeg, .png, .gif]

    /// The format known from the header alone: `requested`, else `source` when it is preferred; `nil` until the
    /// image is decoded.
    func early(requested: ImageFormat?, source: ImageFormat) -> ImageFormat? {
        requested ?? (preferred.contains(source) ? source : nil)
    }

    /// Whether a result whose format is `early` (or still open, `nil`) may be animated.
    func mayAnimate(_ early: ImageFormat?) -> Bool {
        early.map(Self.animatable.contains) ?? preferred.contains(where: Self.animatable.contains)
    }

    /// The format once the image is known.
    func late(animated: Bool, expectsTransparency: Bool) -> ImageFormat {
        preferred.first { format in
            (!animated || Self.animatable.contains(format)) && (!expectsTransparency || Self.withAlpha.contains(format))
        } ?? preferred[0]
    }
}
