import WebImage

/// imgproxy's `watermark`: the server's watermark image laid over every frame, when the `watermark` option asks for
/// it and the server has one (otherwise the option changes nothing, as in imgproxy).
///
/// As imgproxy's `prepareWatermark` and `applyWatermark`: with a `scale`, the watermark is fitted (enlarged or
/// reduced) into `scale` × the frame's size; its alpha is multiplied by the option's opacity times the setting's; a
/// position places it as imgproxy's `calcPosition` with overflow (offsets in pixels scaled by the DPR, or fractions
/// of the frame below 1, away from the edges the position names), and `re` tiles it from the centre, each tile
/// padded by the offsets (half on each side), as libvips's centred `replicate`.
struct WatermarkStep: ProcessingStep {
    func apply(to context: inout ProcessingContext) throws(ImageServerError) {
        let option = context.options.watermark
        guard option.isEnabled, let watermark = context.watermark else { return }
        let frame = context.image.size
        var layer = try Self.layer(watermark.pixels, option: option, frame: frame, limits: context.limits)
        let dpr = context.geometry.dprScale
        let columns: [Int]
        let rows: [Int]
        if let kind = option.position.gravityKind {
            let gravity = GravityOption(kind, x: option.x, y: option.y)
            let (x, y) = GeometryCalculator.position(
                outer: frame, inner: layer.size, gravity: gravity, dpr: dpr, allowsOverflow: true)
            (columns, rows) = ([x], [y])
        } else {
            let spacing = (x: Self.spacing(option.x, frame.width, dpr), y: Self.spacing(option.y, frame.height, dpr))
            layer = try Self.cell(layer, spacing: spacing)
            columns = Self.tiles(layer.width, spacing: max(spacing.x, 0), over: frame.width)
            rows = Self.tiles(layer.height, spacing: max(spacing.y, 0), over: frame.height)
        }
        let opacity = option.opacity * watermark.opacity
        context.image = context.image.withFrames(
            context.image.frames.map { frame in
                ImageFrame(
                    pixels: frame.pixels.composited(layer, columns: columns, rows: rows, opacity: opacity),
                    deepPixels: frame.deepPixels?.composited(layer, columns: columns, rows: rows, opacity: opacity),
                    duration: frame.duration)
            })
    }

    /// The watermark at the size the option asks: with a scale, fitted into `scale` × `frame` (imgproxy's `fit`
    /// with `enlarge`, each side at least 1), within the result-dimension limit and the pixel budget.
    static func layer(
        _ pixels: PixelBuffer, option: WatermarkOption, frame: PixelSize, limits: ServerLimits
    ) throws(ImageServerError) -> PixelBuffer {
        guard option.scale > 0 else { return pixels }
        var fit = ProcessingOptions()
        fit.width = min(max(PixelMath.scaleToEven(frame.width, option.scale), 1), OptionArguments.maxInteger)
        fit.height = min(max(PixelMath.scaleToEven(frame.height, option.scale), 1), OptionArguments.maxInteger)
        fit.enlarge = true
        let geometry = GeometryCalculator.geometry(
            source: pixels.size, options: fit, maxResultDimension: limits.maxResultDimension)
        try PrepareStep.checkWork(geometry, frames: 1, limits: limits)
        return Resampler(filter: .lanczos3).resample(pixels, to: geometry.scaledSize, opaque: pixels.isOpaque)
    }

    /// The space between tiles along a side of `length` pixels: imgproxy's offset rule (pixels scaled by the DPR
    /// when at least 1, a fraction of the side below that); negative when the option's offset is.
    static func spacing(_ offset: Double, _ length: Int, _ dpr: Double) -> Int {
        let space = abs(offset) >= 1 ? PixelMath.roundToEven(offset * dpr) : PixelMath.scaleToEven(length, offset)
        return min(max(space, -OptionArguments.maxInteger), OptionArguments.maxInteger)
    }

    /// The tile of a negative `spacing`: imgproxy pads the watermark by the spacing (half before it, rounded toward
    /// 0, the rest after) with libvips' `embed`, which cuts a negative padding off; 422 when nothing is left (libvips
    /// fails there).
    static func cell(_ layer: PixelBuffer, spacing: (x: Int, y: Int)) throws(ImageServerError) -> PixelBuffer {
        let cut = (x: min(spacing.x, 0), y: min(spacing.y, 0))
        guard cut != (0, 0) else { return layer }
        let width = layer.width + cut.x
        let height = layer.height + cut.y
        guard width > 0, height > 0 else {
            throw ImageServerError(status: 422, "the watermark spacing leaves nothing of the watermark")
        }
        return layer.cropped(to: PixelRect(x: -(cut.x / 2), y: -(cut.y / 2), width: width, height: height))
    }

    /// Where the tiles of libvips's centred `replicate` start along a side of `length` pixels: cells of `tile` plus
    /// `spacing` (split half before, half after the tile), an odd number of them, the middle one centred.
    static func tiles(_ tile: Int, spacing: Int, over length: Int) -> [Int] {
        let cell = tile + spacing
        var count = (length + cell - 1) / cell
        if count % 2 == 0 { count += 1 }
        let shift = (count * cell - length) / 2
        return (0..<count).map { $0 * cell + spacing / 2 - shift }
    }
}
