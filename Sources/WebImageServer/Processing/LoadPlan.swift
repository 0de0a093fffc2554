import WebImage

/// What is decided from the header before any pixel is decoded: the resolution check, the result format when it is
/// already known, whether the image animates, the geometry planned from the header's size, and how the source is
/// decoded, with imgproxy's scale on load (``shrink(_:format:rotate:)``) and colour space in (RGB pixels keep
/// the source's ICC profile).
struct LoadPlan: Sendable {
    /// The result format when the header decides it; `nil` until the image is decoded.
    let format: ImageFormat?
    /// The geometry from the header's size: upright when auto-rotating, then turned by `rotate`.
    let planned: ResultGeometry
    /// How the source is decoded.
    let decoding: DecodingOptions

    /// The plan for a source described by `info`; throws 422 when the frames to decode exceed the resolution limit.
    init(
        info: ImageInfo, options: ProcessingOptions, requested: ImageFormat?, formats: FormatChoice,
        limits: ServerLimits, shrinksOnLoad: Bool = true
    ) throws(ImageServerError) {
        let candidate = formats.early(requested: requested, source: info.format)
        let animate = formats.mayAnimate(candidate) && limits.maxAnimationFrames > 1
        // The frames that will be decoded count, as imgproxy counts the frames it loads.
        let keptFrames = animate ? max(1, min(info.frameCount, limits.maxAnimationFrames)) : 1
        try Self.checkResolution(width: info.width, height: info.height, frames: keptFrames, limits: limits)
        var size = options.autoRotate ? info.uprightSize : PixelSize(width: info.width, height: info.height)
        if options.rotate % 180 == 90 { size = PixelSize(width: size.height, height: size.width) }
        let planned = GeometryCalculator.geometry(
            source: size, options: options, maxResultDimension: limits.maxResultDimension)
        format = candidate
        self.planned = planned
        // imgproxy trims the full image and plans the geometry from the trimmed size: no shrink on load then; nor
        // when a HEIF thumbnail is to be decoded, whose size the header does not give. A vector is rendered at the
        // size the geometry needs.
        let shrink =
            shrinksOnLoad && options.trim == nil && !options.enforceThumbnail
            ? Self.shrink(planned, format: info.format, rotate: options.rotate) : nil
        decoding = DecodingOptions(
            targetSize: info.format == .svg
                ? Self.renderTarget(planned, options: options, header: info) : shrink?.targetSize,
            firstFrameOnly: !animate, appliesOrientation: options.autoRotate,
            limits: DecodingLimits(
                maxPixelsPerFrame: info.format == .svg
                    ? max(limits.maxSourceResolution, limits.maxResultDimension * limits.maxResultDimension)
                    : max(limits.maxSourceResolution, keptFrames > 1 ? limits.maxAnimationFrameResolution : 0)),
            // Colour space in, as imgproxy 4's `colorspaceToProcessing`: RGB pixels stay in their profile's space
            // (CMYK and grey profiles are applied by the decoder); the profile is applied at encoding (colour space
            // out), or kept with `strip_color_profile:0`.
            keepsColorProfile: true,
            keepsMetadata: !options.stripMetadata || options.keepCopyright,
            prefersThumbnail: options.enforceThumbnail,
            shrinkFactor: shrink?.factor
        )
    }

    /// imgproxy's `CheckDimensions`: an animation of several frames against the frame resolution limit, when there
    /// is one, else width × height × frames against the source resolution limit; 422 when over.
    static func checkResolution(width: Int, height: Int, frames: Int, limits: ServerLimits) throws(ImageServerError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if frames > 1 && limits.maxAnimationFrameResolution > 0 {
            guard !overflow, pixels <= limits.maxAnimationFrameResolution else {
                throw ImageServerError(status: 422, "source image frame resolution is too big")
            }
            return
        }
        let (total, overflow2) = pixels.multipliedReportingOverflow(by: max(1, frames))
        guard !overflow, !overflow2, total <= limits.maxSourceResolution else {
            throw ImageServerError(status: 422, "source image resolution is too big")
        }
    }

    /// The size a vector source is rendered at: the scaled size when nothing is cut in source pixels (imgproxy's
    /// scale on load of a vector, up or down), else the size the geometry was planned from (`header`, already
    /// within the resolution limit); in stored orientation.
    static func renderTarget(_ planned: ResultGeometry, options: ProcessingOptions, header: ImageInfo) -> PixelSize {
        guard planned.crop == nil, options.trim == nil else {
            return PixelSize(width: header.width, height: header.height)
        }
        let scaled = planned.scaledSize
        return options.rotate % 180 == 90 ? PixelSize(width: scaled.height, height: scaled.width) : scaled
    }

    /// imgproxy's scale on load (`canScaleOnLoad`, `scaleOnLoad`), from the planned preshrink: a JPEG decoded at
    /// 1/2, 1/4 or 1/8, a WebP at any shrink (``DecodingOptions/shrinkFactor``), a HEIC or AVIF through an embedded
    /// thumbnail that is not shrunk more than the preshrink (a ``DecodingOptions/targetSize`` of the source divided
    /// by it, rounded up, in stored orientation but for `rotate`); `nil` for other formats, or when there is
    /// nothing to shrink. ``ScaleOnLoadStep`` plans the geometry again from the size the decoder gave.
    static func shrink(
        _ planned: ResultGeometry, format: ImageFormat, rotate: Int
    ) -> (factor: Double?, targetSize: PixelSize?)? {
        let preshrink = planned.preshrink
        guard preshrink.isFinite, preshrink > 1 else { return nil }
        switch format {
        case .jpeg:
            let shrink = ScaleOnLoad.jpegShrink(preshrink)
            return shrink > 1 ? (Double(shrink), nil) : nil
        case .webp:
            return (preshrink, nil)
        case .heic, .avif:
            let source = planned.sourceSize
            // A thumbnail whose sides are at least these is shrunk no more than the preshrink (the small margin keeps a
            // thumbnail at exactly the preshrink that rounding would push over).
            let width = Int((Double(source.width) / preshrink - 1e-9).rounded(.up))
            let height = Int((Double(source.height) / preshrink - 1e-9).rounded(.up))
            let upright = rotate % 180 == 90
            return (nil, PixelSize(width: upright ? height : width, height: upright ? width : height))
        default:
            return nil
        }
    }
}
