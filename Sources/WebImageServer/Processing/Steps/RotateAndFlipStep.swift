import WebImage

/// imgproxy's `rotateAndFlip`: the `rotate` option, then the `flip` (which changes no size).
///
/// It runs before the crop here, on the full image: the geometry is computed for the rotated size (see
/// ``ProcessingPipeline``).
struct RotateAndFlipStep: ProcessingStep {
    func apply(to context: inout ProcessingContext) throws(ImageServerError) {
        let options = context.options
        let deep = context.image.frames.map(\.deepPixels)
        if options.rotate != 0 {
            let rotate = Rotate(degrees: Double(options.rotate))
            let image = context.image
            context.image = try ImageProcessor.library { () throws(WebImageError) in try rotate.transform(image) }
        }
        if options.flipHorizontal || options.flipVertical {
            let flip = Flip(horizontal: options.flipHorizontal, vertical: options.flipVertical)
            let image = context.image
            context.image = try ImageProcessor.library { () throws(WebImageError) in try flip.transform(image) }
        }
        guard deep.contains(where: { $0 != nil }), options.rotate != 0 || options.flipHorizontal || options.flipVertical
        else { return }
        let turns = Self.orientations(
            rotate: options.rotate, horizontal: options.flipHorizontal, vertical: options.flipVertical)
        context.image = context.image.withFrames(
            zip(context.image.frames, deep).map { frame, pixels in
                ImageFrame(
                    pixels: frame.pixels,
                    deepPixels: pixels.map { turns.reduce($0) { pixels, turn in pixels.oriented(from: turn) } },
                    duration: frame.duration)
            })
    }

    /// The turns that ``Rotate`` by `rotate` (0, 90, 180 or 270) and then ``Flip`` make, as stored orientations that
    /// ``PixelBuffer16/oriented(from:)`` undoes, in order: the 16-bit pixels follow the 8-bit ones exactly.
    static func orientations(rotate: Int, horizontal: Bool, vertical: Bool) -> [ImageOrientation] {
        var turns: [ImageOrientation] = []
        switch rotate {
        case 90: turns.append(.right)
        case 180: turns.append(.down)
        case 270: turns.append(.left)
        default: break
        }
        switch (horizontal, vertical) {
        case (true, true): turns.append(.down)
        case (true, false): turns.append(.upMirrored)
        case (false, true): turns.append(.downMirrored)
        case (false, false): break
        }
        return turns
    }
}
