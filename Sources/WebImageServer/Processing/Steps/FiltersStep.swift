import WebImage

/// imgproxy's `applyFilters`: `blur`, then `sharpen`, then `pixelate`, on every frame.
struct FiltersStep: ProcessingStep {
    func apply(to context: inout ProcessingContext) throws(ImageServerError) {
        var filters: [any PixelTransforming] = []
        // The library refuses radii past Blur.maximumRadius (their cost grows with the radius); the server caps them.
        if context.options.blur > 0 { filters.append(Blur(radius: min(context.options.blur, Blur.maximumRadius))) }
        if context.options.sharpen > 0 {
            filters.append(Sharpen(sigma: min(context.options.sharpen, Blur.maximumRadius)))
        }
        for filter in filters {
            try context.transformFrames { pixels throws(WebImageError) in try filter.transform(pixels) }
        }
        let size = context.options.pixelate
        if size > 1 {
            // imgproxy pixelates premultiplied pixels when it blurs or sharpens first.
            let pixelate = Pixelate(blockSize: size, premultiplied: !filters.isEmpty)
            try context.transformFrames { pixels throws(WebImageError) in try pixelate.transform(pixels) }
        }
    }
}
