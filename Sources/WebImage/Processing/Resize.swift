/// How ``Resize`` fits an image into a target size.
public struct ResizeMode: Hashable, Sendable, CustomStringConvertible {
    public let description: String
    private init(_ name: String) { description = name }

    /// Scale to fit inside the target, keeping the aspect ratio (CSS `contain`); one side may be shorter.
    public static let fit = ResizeMode("fit")
    /// Scale to cover the target, keeping the aspect ratio, and crop the overflow (CSS `cover`).
    public static let fill = ResizeMode("fill")
    /// Scale each axis to the target exactly, changing the aspect ratio.
    public static let stretch = ResizeMode("stretch")

    /// All modes, for parsing names.
    public static let all: [ResizeMode] = [fit, fill, stretch]
}

/// Resizes every frame: to a pixel size (``ResizeMode/fit``, ``ResizeMode/fill`` or ``ResizeMode/stretch``) or by
/// a scale factor, with a ``ResamplingFilter`` (Lanczos3 by default). Never enlarges unless `allowsUpscaling`.
public struct Resize: PixelTransforming {
    /// The target size, or `nil` when resizing by ``scale``.
    public let size: PixelSize?
    /// The scale factor, when resizing by a factor.
    public let scale: Double?
    public let mode: ResizeMode
    public let filter: ResamplingFilter
    /// Where ``ResizeMode/fill`` keeps the picture when it crops.
    public let gravity: Gravity
    public let allowsUpscaling: Bool

    /// Resizes to `size` in `mode`.
    public init(
        to size: PixelSize, mode: ResizeMode = .fit, filter: ResamplingFilter = .lanczos3, gravity: Gravity = .center,
        allowsUpscaling: Bool = false
    ) {
        self.size = size
        scale = nil
        self.mode = mode
        self.filter = filter
        self.gravity = gravity
        self.allowsUpscaling = allowsUpscaling
    }

    /// Resizes by `scale` (0.5 halves both sides).
    public init(scale: Double, filter: ResamplingFilter = .lanczos3, allowsUpscaling: Bool = false) {
        size = nil
        self.scale = scale
        mode = .stretch
        self.filter = filter
        gravity = .center
        self.allowsUpscaling = allowsUpscaling
    }

    public var key: String {
        let target = size.map { "\($0),\(mode)" } ?? "x\(scale!.keyDescription)"
        let placement = mode == .fill && gravity != .center ? ",\(gravity)" : ""
        return "resize(\(target)\(placement),\(filter)\(allowsUpscaling ? ",up" : ""))"
    }

    public func transform(_ pixels: PixelBuffer) throws(WebImageError) -> PixelBuffer {
        let plan = try plan(for: pixels.size)
        let region = pixels.cropped(to: plan.crop)
        return Resampler(filter: filter).resample(region, to: plan.output)
    }

    /// The smallest decoded size this resize needs from a source of `original` size: decode no smaller than this
    /// and the result is the same. Use it as ``DecodingOptions/targetSize`` for shrink-on-load.
    public func minimumSourceSize(for original: PixelSize) throws(WebImageError) -> PixelSize {
        let plan = try plan(for: original)
        let scaleX = Double(plan.output.width) / Double(plan.crop.width)
        let scaleY = Double(plan.output.height) / Double(plan.crop.height)
        return PixelSize(
            width: min(original.width, Int((Double(original.width) * scaleX).rounded(.up))),
            height: min(original.height, Int((Double(original.height) * scaleY).rounded(.up))))
    }

    /// The part of the source to use and the size to scale it to.
    private func plan(for source: PixelSize) throws(WebImageError) -> (crop: PixelRect, output: PixelSize) {
        let whole = PixelRect(x: 0, y: 0, width: source.width, height: source.height)
        let (w, h) = (Double(source.width), Double(source.height))
        if let scale {
            guard scale.isFinite, scale > 0 else {
                throw WebImageError(.invalidArgument, "resize scale \(scale) must be positive")
            }
            let factor = allowsUpscaling ? scale : min(scale, 1)
            return (
                whole,
                PixelSize(width: max(1, Int((w * factor).rounded())), height: max(1, Int((h * factor).rounded())))
            )
        }
        guard let size, size.width > 0, size.height > 0 else {
            throw WebImageError(.invalidArgument, "resize size \(size.map(\.description) ?? "nil") must be positive")
        }
        let (tw, th) = (Double(size.width), Double(size.height))
        switch mode {
        case .fill:
            let cropWidth = min(w, (h * tw / th).rounded())
            let cropHeight = min(h, (w * th / tw).rounded())
            let crop = gravity.place(PixelSize(width: Int(cropWidth), height: Int(cropHeight)), in: source)
            let factor = allowsUpscaling ? tw / cropWidth : min(tw / cropWidth, 1)
            let output =
                factor == tw / cropWidth
                ? size
                : PixelSize(width: crop.width, height: crop.height)
            return (crop, output)
        case .stretch:
            let output =
                allowsUpscaling
                ? size
                : PixelSize(width: min(size.width, source.width), height: min(size.height, source.height))
            return (whole, output)
        default:
            let factor = allowsUpscaling ? min(tw / w, th / h) : min(tw / w, th / h, 1)
            return (
                whole,
                PixelSize(width: max(1, Int((w * factor).rounded())), height: max(1, Int((h * factor).rounded())))
            )
        }
    }
}
