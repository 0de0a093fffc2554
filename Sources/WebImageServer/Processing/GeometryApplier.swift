import WebImage

/// Moves the pixels as a ``ResultGeometry`` says: crop, scale, crop to the result, filters, extend, extend to the
/// aspect ratio, padding.
///
/// Smart crops are placed once, on the first frame, and every frame of an animation is cut the same way.
struct GeometryApplier {
    let geometry: ResultGeometry
    let blur: Double
    let sharpen: Double
    /// The colour of the canvases; transparent when `nil`.
    let background: RGBA?

    func apply(to image: Image) throws(WebImageError) -> Image {
        var frames = image.frames
        if let crop = geometry.crop {
            let rect = resolve(crop, in: frames[0].pixels)
            frames = frames.map { ImageFrame(pixels: $0.pixels.cropped(to: rect), duration: $0.duration) }
        }
        let opaque = image.isOpaque
        let resampler = Resampler(filter: .lanczos3)
        frames = frames.map {
            ImageFrame(
                pixels: resampler.resample($0.pixels, to: geometry.scaledSize, opaque: opaque), duration: $0.duration)
        }
        if let crop = geometry.resultCrop {
            let rect = resolve(crop, in: frames[0].pixels)
            frames = frames.map { ImageFrame(pixels: $0.pixels.cropped(to: rect), duration: $0.duration) }
        }
        var filters: [any PixelTransforming] = []
        // The library refuses radii past Blur.maximumRadius (their cost grows with the radius); the server caps them.
        if blur > 0 { filters.append(Blur(radius: min(blur, Blur.maximumRadius))) }
        if sharpen > 0 { filters.append(Sharpen(sigma: min(sharpen, Blur.maximumRadius))) }
        for filter in filters {
            var filtered: [ImageFrame] = []
            for frame in frames {
                filtered.append(ImageFrame(pixels: try filter.transform(frame.pixels), duration: frame.duration))
            }
            frames = filtered
        }
        for canvas in [geometry.canvas, geometry.aspectRatioCanvas, geometry.paddingCanvas].compactMap(\.self) {
            let embed = Embed(canvasSize: canvas.size, x: canvas.x, y: canvas.y, background: background ?? .clear)
            var embedded: [ImageFrame] = []
            for frame in frames {
                embedded.append(ImageFrame(pixels: try embed.transform(frame.pixels), duration: frame.duration))
            }
            frames = embedded
        }
        return image.withFrames(frames)
    }

    private func resolve(_ crop: ResultGeometry.CropStep, in pixels: PixelBuffer) -> PixelRect {
        switch crop {
        case .rect(let rect): rect
        case .smart(let size): SmartCrop.rect(of: size, in: pixels)
        }
    }
}
