import WebImage

/// What the steps of ``ProcessingPipeline`` share (imgproxy's `processing.Context`): the image as it now is, the
/// options and limits of the request, the result format, the geometry and the encoding options.
struct ProcessingContext: Sendable {
    /// The image; each step replaces it with its result.
    var image: Image
    /// The request's options.
    let options: ProcessingOptions
    /// The server's limits.
    let limits: ServerLimits
    /// The result format, chosen before the steps run.
    let format: ImageFormat
    /// The geometry: planned from the header's size until ``PrepareStep`` plans it from the pixels.
    var geometry: ResultGeometry
    /// Whether the decoder was asked for a smaller image (shrink-on-load): ``ScaleOnLoadStep`` then plans the
    /// geometry for the size it gave.
    let shrunkOnLoad: Bool
    /// How the result is encoded; the last steps decide what it carries.
    var encoding: EncodingOptions
    /// The server's watermark image, when it has one and the request asks for it.
    let watermark: WatermarkImage?
    /// Whether ``ScaleStep`` resizes in linear light (`--use-linear-colorspace`).
    var linearLight = false

    /// A context for `image` with the geometry planned from `planned`.
    init(
        image: Image, options: ProcessingOptions, limits: ServerLimits, format: ImageFormat,
        planned: ResultGeometry, shrunkOnLoad: Bool, encoding: EncodingOptions, watermark: WatermarkImage? = nil
    ) {
        self.image = image
        self.options = options
        self.limits = limits
        self.format = format
        self.geometry = planned
        self.shrunkOnLoad = shrunkOnLoad
        self.encoding = encoding
        self.watermark = watermark
    }

    /// Replaces every frame's pixels by `transform` of them, keeping the durations; a library error is a 422. The
    /// frames come out with 8-bit pixels alone: a step that has no 16-bit path ends a high bit depth here.
    mutating func transformFrames(
        _ transform: (PixelBuffer) throws(WebImageError) -> PixelBuffer
    ) throws(ImageServerError) {
        var frames: [ImageFrame] = []
        frames.reserveCapacity(image.frames.count)
        for frame in image.frames {
            let pixels = try ImageProcessor.library { () throws(WebImageError) in try transform(frame.pixels) }
            frames.append(ImageFrame(pixels: pixels, duration: frame.duration))
        }
        image = image.withFrames(frames)
    }

    /// Cuts every frame as `crop` says; a smart crop is placed once, on the first frame, and every frame of an
    /// animation is cut the same way.
    mutating func cut(_ crop: ResultGeometry.CropStep?) {
        guard let crop else { return }
        let rect: PixelRect
        switch crop {
        case .rect(let fixed): rect = fixed
        case .smart(let size): rect = SmartCrop.rect(of: size, in: image.pixels)
        }
        image = image.withFrames(
            image.frames.map {
                ImageFrame(
                    pixels: $0.pixels.cropped(to: rect), deepPixels: $0.deepPixels?.cropped(to: rect),
                    duration: $0.duration)
            })
    }

    /// Places every frame on `canvas`, filled with the `background` option or transparent; 16-bit pixels too.
    mutating func embed(on canvas: ResultGeometry.Canvas?) throws(ImageServerError) {
        guard let canvas else { return }
        let background = options.background ?? .clear
        let embed = Embed(canvasSize: canvas.size, x: canvas.x, y: canvas.y, background: background)
        var frames: [ImageFrame] = []
        frames.reserveCapacity(image.frames.count)
        for frame in image.frames {
            let placed = try ImageProcessor.library { () throws(WebImageError) in
                ImageFrame(
                    pixels: try embed.transform(frame.pixels),
                    deepPixels: try frame.deepPixels?.embedded(
                        in: canvas.size, x: canvas.x, y: canvas.y, background: background),
                    duration: frame.duration)
            }
            frames.append(placed)
        }
        image = image.withFrames(frames)
    }

    /// The frames with their 16-bit pixels dropped: the result format writes 8 bits (``ImageProcessor/highBitDepth``).
    mutating func dropHighBitDepth() {
        guard image.frames.contains(where: { $0.deepPixels != nil }) else { return }
        image = image.withFrames(image.frames.map { ImageFrame(pixels: $0.pixels, duration: $0.duration) })
    }
}
