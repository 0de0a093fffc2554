/// How ``Resize`` fits an image into a target size; the names and meanings of CSS `object-fit`, as the CLI's `--fit`.
public struct ResizeMode: Hashable, Sendable, CustomStringConvertible {
    /// The mode's CSS `object-fit` name.
    public let description: String
    private init(_ name: String) { description = name }

    /// Scale to fit inside the target, keeping the aspect ratio (CSS `contain`); one side may be shorter.
    public static let contain = ResizeMode("contain")
    /// Scale to cover the target, keeping the aspect ratio, and crop the overflow (CSS `cover`).
    public static let cover = ResizeMode("cover")
    /// Scale each axis to the target exactly, changing the aspect ratio (CSS `fill`).
    public static let fill = ResizeMode("fill")

    /// All modes, for parsing names.
    public static let all: [ResizeMode] = [contain, cover, fill]

    /// The mode's word in cache keys. ``fill`` is `stretch` there: before these modes took CSS's names, `fill` meant
    /// what ``cover`` means now, and a disk cache written then must not answer a stretch with a cover crop.
    var keyToken: String { self == .fill ? "stretch" : description }
}

/// Resizes every frame: to a pixel size (``ResizeMode/contain``, ``ResizeMode/cover`` or ``ResizeMode/fill``) or by
/// a scale factor, with a ``ResamplingFilter`` (Lanczos3 by default). Never enlarges unless `allowsUpscaling`.
///
/// Every size is checked before pixels are allocated: a zero, negative or non-finite parameter is
/// ``WebImageError/Code/invalidArgument``; a requested size (``ResizeMode/cover``, ``ResizeMode/fill``) or a
/// computed result beyond ``limits`` is ``WebImageError/Code/tooLarge``. Results are at least 1x1.
public struct Resize: PixelTransforming {
    /// The target size, or `nil` when resizing by ``scale``.
    public let size: PixelSize?
    /// The scale factor, when resizing by a factor.
    public let scale: Double?
    /// How the image is fitted into ``size``.
    public let mode: ResizeMode
    /// The resampling filter.
    public let filter: ResamplingFilter
    /// Where ``ResizeMode/cover`` keeps the picture when it crops.
    public let gravity: Gravity
    /// Whether a result larger than the source is made; otherwise the source size caps it.
    public let allowsUpscaling: Bool
    /// The largest result allowed.
    public let limits: TransformLimits

    /// Resizes to `size` in `mode`.
    public init(
        to size: PixelSize, mode: ResizeMode = .contain, filter: ResamplingFilter = .lanczos3,
        gravity: Gravity = .center,
        allowsUpscaling: Bool = false, limits: TransformLimits = .default
    ) {
        self.size = size
        scale = nil
        self.mode = mode
        self.filter = filter
        self.gravity = gravity
        self.allowsUpscaling = allowsUpscaling
        self.limits = limits
    }

    /// Resizes by `scale` (0.5 halves both sides).
    public init(
        scale: Double, filter: ResamplingFilter = .lanczos3, allowsUpscaling: Bool = false,
        limits: TransformLimits = .default
    ) {
        size = nil
        self.scale = scale
        mode = .fill
        self.filter = filter
        gravity = .center
        self.allowsUpscaling = allowsUpscaling
        self.limits = limits
    }

    public var key: String {
        let target = size.map { "\($0),\(mode.keyToken)" } ?? "x\((scale ?? 1).keyDescription)"
        let placement = mode == .cover && gravity != .center ? ",\(gravity)" : ""
        return "resize(\(target)\(placement),\(filter)\(allowsUpscaling ? ",up" : ""))"
    }

    public func transform(_ pixels: PixelBuffer) throws(WebImageError) -> PixelBuffer {
        let plan = try plan(for: pixels.size)
        let region = pixels.cropped(to: plan.crop)
        return Resampler(filter: filter).resample(region, to: plan.output)
    }

    /// Resizes `image`, a shrink-on-load decode of a source of `original` pixels, to exactly the crop and size this
    /// resize gives for the source itself: the plan is made on `original` and its crop scaled onto the decode, so the
    /// decoder's rounding of a scaled size never changes the result's size.
    public func transform(_ image: Image, shrunkFrom original: PixelSize) throws(WebImageError) -> Image {
        let plan = try plan(for: original)
        let decoded = image.size
        let (scaleX, scaleY) = (
            Double(decoded.width) / Double(original.width), Double(decoded.height) / Double(original.height)
        )
        let x = min(Int((Double(plan.crop.x) * scaleX).rounded()), decoded.width - 1)
        let y = min(Int((Double(plan.crop.y) * scaleY).rounded()), decoded.height - 1)
        let crop = PixelRect(
            x: x, y: y, width: Self.pixels((Double(plan.crop.width) * scaleX).rounded(), atMost: decoded.width - x),
            height: Self.pixels((Double(plan.crop.height) * scaleY).rounded(), atMost: decoded.height - y))
        let resampler = Resampler(filter: filter)
        return image.withFrames(
            image.frames.map {
                ImageFrame(
                    pixels: resampler.resample($0.pixels.cropped(to: crop), to: plan.output), duration: $0.duration)
            })
    }

    /// The smallest decoded size this resize needs from a source of `original` size: decode no smaller than this
    /// and the result is the same. Use it as ``DecodingOptions/targetSize`` for shrink-on-load; `nil` when the
    /// parameters are invalid for this source (the transform itself then reports why).
    public func minimumSourceSize(for original: PixelSize) -> PixelSize? { try? sourceSizeNeeded(for: original) }

    /// ``minimumSourceSize(for:)``, or why these parameters do not apply to a source of `original` pixels.
    func sourceSizeNeeded(for original: PixelSize) throws(WebImageError) -> PixelSize {
        let plan = try plan(for: original)
        let scaleX = Double(plan.output.width) / Double(plan.crop.width)
        let scaleY = Double(plan.output.height) / Double(plan.crop.height)
        return PixelSize(
            width: Self.pixels((Double(original.width) * scaleX).rounded(.up), atMost: original.width),
            height: Self.pixels((Double(original.height) * scaleY).rounded(.up), atMost: original.height))
    }

    /// The part of the source to use and the size to scale it to.
    private func plan(for source: PixelSize) throws(WebImageError) -> (crop: PixelRect, output: PixelSize) {
        guard source.width > 0, source.height > 0 else {
            throw WebImageError(.invalidArgument, "cannot resize an empty \(source) image")
        }
        let whole = PixelRect(x: 0, y: 0, width: source.width, height: source.height)
        let (w, h) = (Double(source.width), Double(source.height))
        if let scale {
            guard scale.isFinite, scale > 0 else {
                throw WebImageError(.invalidArgument, "resize scale \(scale) must be a positive number")
            }
            let factor = allowsUpscaling ? scale : min(scale, 1)
            return (whole, try limits.size(width: w * factor, height: h * factor, for: "resize"))
        }
        guard let size, size.width > 0, size.height > 0 else {
            throw WebImageError(.invalidArgument, "resize size \(size.map(\.description) ?? "nil") must be positive")
        }
        let (tw, th) = (Double(size.width), Double(size.height))
        switch mode {
        case .cover:
            _ = try limits.size(width: tw, height: th, for: "resize")
            let cropWidth = max(1, min(w, (h * tw / th).rounded()))
            let cropHeight = max(1, min(h, (w * th / tw).rounded()))
            let crop = gravity.place(
                PixelSize(
                    width: Self.pixels(cropWidth, atMost: source.width),
                    height: Self.pixels(cropHeight, atMost: source.height)),
                in: source)
            let output = allowsUpscaling || tw <= cropWidth ? size : crop.size
            return (crop, output)
        case .fill:
            _ = try limits.size(width: tw, height: th, for: "resize")
            let output =
                allowsUpscaling
                ? size
                : PixelSize(width: min(size.width, source.width), height: min(size.height, source.height))
            return (whole, output)
        default:
            let factor = allowsUpscaling ? min(tw / w, th / h) : min(tw / w, th / h, 1)
            return (whole, try limits.size(width: w * factor, height: h * factor, for: "resize"))
        }
    }

    /// `value` as a whole number of pixels from 1 to `limit`, without trapping when `limit` is near `Int.max` (where
    /// `Double(limit)` rounds up past it).
    private static func pixels(_ value: Double, atMost limit: Int) -> Int {
        value >= Double(limit) ? limit : max(1, Int(value))
    }
}
