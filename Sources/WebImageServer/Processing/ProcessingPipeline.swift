/// The processing steps in the order they run, one file each under `Steps/`, as imgproxy's `processing/pipeline.go`
/// lists them: trim, prepare, scale on load, colour space in, crop, scale, rotate and flip, crop to result, filters,
/// extend, extend to the aspect ratio, padding, flatten, watermark, colour space out, strip metadata.
///
/// Where this server differs:
/// - Scale on load and colour space in are decided from the header, before any pixel is decoded: they are the
///   decoding options of ``LoadPlan``; ``ScaleOnLoadStep`` then plans the geometry for the size decoded.
/// - Rotate and flip run before the crop, on the full image: the geometry is computed for the rotated size, so
///   crops and gravities apply to the image as it will be shown (imgproxy crops first with a rotated gravity, which
///   cuts the same pixels).
/// - Colour space out and strip metadata decide what the encoder writes (``ProcessingContext/encoding``): the
///   encoders convert to sRGB and write metadata themselves.
enum ProcessingPipeline {
    /// The steps, in order.
    static let steps: [any ProcessingStep] = [
        TrimStep(),
        PrepareStep(),
        ScaleOnLoadStep(),
        RotateAndFlipStep(),
        CropStep(),
        ScaleStep(),
        CropToResultStep(),
        FiltersStep(),
        ExtendStep(),
        ExtendAspectRatioStep(),
        PaddingStep(),
        FlattenStep(),
        WatermarkStep(),
        ColorSpaceOutStep(),
        StripMetadataStep(),
    ]

    /// Runs every step on `context`, in order, adding when each ran to `times` when it is not `nil`.
    static func run(_ context: inout ProcessingContext, times: inout [StageTime]?) throws(ImageServerError) {
        for step in steps {
            guard times != nil else {
                try step.apply(to: &context)
                continue
            }
            let start = ContinuousClock.now
            try step.apply(to: &context)
            times?.append(StageTime(name: step.name, start: start, end: .now))
        }
    }
}
