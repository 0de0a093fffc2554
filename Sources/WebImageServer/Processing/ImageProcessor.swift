import Foundation
import WebImage

/// An encoded result and what the response needs to know about it.
struct ProcessedImage: Sendable {
    /// The encoded bytes.
    var data: Data
    /// Their format.
    var format: ImageFormat
    /// The pixel size.
    var size: PixelSize
    /// Seconds spent decoding, transforming and encoding, for the metrics.
    var timings = StageTimings()
    /// The origin's `Last-Modified`, when it sent one.
    var sourceLastModified: String?
}

/// Seconds spent in each processing stage.
struct StageTimings: Sendable {
    var decode = 0.0
    var transform = 0.0
    var encode = 0.0
}

/// Source bytes to result bytes: header checks, decode, rotate, geometry, flatten, encode.
struct ImageProcessor: Sendable {
    let coders: any ImageCoding
    let limits: ServerLimits
    /// How the format is chosen when the request names none.
    var formats = FormatChoice(preferred: FormatChoice.imgproxyDefault)

    /// The writable formats with room for an ICC profile (`strip_color_profile:0`).
    static let profileCarrying: Set<ImageFormat> = [.jpeg, .png, .webp, .avif]

    /// Processes `data` into `format`, or, when `format` is `nil`, into the format ``FormatChoice`` picks.
    func process(
        _ data: Data, options: ProcessingOptions, format requested: ImageFormat?
    ) throws(ImageServerError) -> ProcessedImage {
        let info: ImageInfo
        do { info = try coders.info(of: data) } catch { throw Self.unprocessable(error) }
        let candidate = formats.early(requested: requested, source: info.format)
        let animate = formats.mayAnimate(candidate) && limits.maxAnimationFrames > 1
        // The frames that will be decoded count, as imgproxy counts the frames it loads.
        let keptFrames = animate ? max(1, min(info.frameCount, limits.maxAnimationFrames)) : 1
        let (pixels, overflow) = info.width.multipliedReportingOverflow(by: info.height)
        let (total, overflow2) = pixels.multipliedReportingOverflow(by: keptFrames)
        guard !overflow, !overflow2, total <= limits.maxSourceResolution else {
            throw ImageServerError(status: 422, "source image resolution is too big")
        }
        let planned = plannedGeometry(info, options: options)
        let decoding = DecodingOptions(
            targetSize: Self.shrinkTarget(planned), firstFrameOnly: !animate, appliesOrientation: options.autoRotate,
            limits: DecodingLimits(maxPixelsPerFrame: limits.maxSourceResolution),
            // A result format without room for a profile (GIF) converts at encoding.
            keepsColorProfile: !options.stripColorProfile && candidate.map(Self.profileCarrying.contains) ?? true,
            keepsMetadata: !options.stripMetadata
        )
        let decodeStart = ContinuousClock.now
        var image: Image
        do { image = try coders.decode(data, options: decoding) } catch { throw Self.unprocessable(error) }
        let decodeSeconds = decodeStart.secondsUntilNow
        if image.frames.count > limits.maxAnimationFrames {
            image = image.withFrames(Array(image.frames.prefix(limits.maxAnimationFrames)))
        }
        let format =
            candidate
            ?? formats.late(
                animated: image.frames.count > 1,
                expectsTransparency: options.background == nil
                    && (info.hasAlpha || options.padding.isEnabled || options.extend))
        guard coders.canEncode(format) else {
            throw ImageServerError(status: 422, "the \(format.name) format cannot be written")
        }
        var result = try render(image, options: options, format: format, planned: planned)
        result.timings.decode = decodeSeconds
        return result
    }

    /// The geometry from the header's size: upright when auto-rotating, then turned by `rotate`.
    private func plannedGeometry(_ info: ImageInfo, options: ProcessingOptions) -> ResultGeometry {
        var size = options.autoRotate ? info.uprightSize : PixelSize(width: info.width, height: info.height)
        if options.rotate % 180 == 90 { size = PixelSize(width: size.height, height: size.width) }
        return GeometryCalculator.geometry(
            source: size, options: options, maxResultDimension: limits.maxResultDimension)
    }

    /// Shrink-on-load: when nothing is cut in source pixels, the decoder may decode smaller, as long as it covers
    /// the scaled size; a square target covers it whatever the orientation. The geometry stays the planned one.
    static func shrinkTarget(_ planned: ResultGeometry) -> PixelSize? {
        let scaled = planned.scaledSize
        guard planned.crop == nil, scaled.width < planned.sourceSize.width, scaled.height < planned.sourceSize.height
        else { return nil }
        let side = max(scaled.width, scaled.height)
        return PixelSize(width: side, height: side)
    }

    private func render(
        _ source: Image, options: ProcessingOptions, format: ImageFormat, planned: ResultGeometry
    ) throws(ImageServerError) -> ProcessedImage {
        let transformStart = ContinuousClock.now
        var image = source
        if options.rotate != 0 {
            let rotate = Rotate(degrees: Double(options.rotate))
            image = try Self.library { () throws(WebImageError) in try rotate.transform(source) }
        }
        // The flip follows the rotation (imgproxy's `rotateAndFlip`) and changes no size.
        if options.flipHorizontal || options.flipVertical {
            let flip = Flip(horizontal: options.flipHorizontal, vertical: options.flipVertical)
            let rotated = image
            image = try Self.library { () throws(WebImageError) in try flip.transform(rotated) }
        }
        // A shrunk decode keeps the planned geometry (scaling goes straight to its scaled size); otherwise the decoded
        // size is the header's, and anything else (a header that lied) is planned again from the pixels.
        let shrunk = Self.shrinkTarget(planned) != nil
        let geometry =
            shrunk || image.size == planned.sourceSize
            ? planned
            : GeometryCalculator.geometry(
                source: image.size, options: options, maxResultDimension: limits.maxResultDimension)
        try checkWork(geometry, frames: image.frames.count)
        let applier = GeometryApplier(
            geometry: geometry, blur: options.blur, sharpen: options.sharpen, background: options.background)
        let rotated = image
        image = try Self.library { () throws(WebImageError) in try applier.apply(to: rotated) }
        if options.background != nil || (format == .jpeg && !image.isOpaque) {
            let back = options.background ?? .white
            image = image.withFrames(
                image.frames.map { ImageFrame(pixels: $0.pixels.flattened(over: back), duration: $0.duration) })
        }
        let quality = options.formatQuality[format] ?? (options.quality > 0 ? options.quality : 80)
        let result = image
        var timings = StageTimings(transform: transformStart.secondsUntilNow)
        let encodeStart = ContinuousClock.now
        let data = try Self.library { () throws(WebImageError) in
            try coders.encode(
                result, as: format,
                options: EncodingOptions(
                    quality: quality,
                    embedsColorProfile: !options.stripColorProfile && Self.profileCarrying.contains(format),
                    embedsMetadata: !options.stripMetadata))
        }
        timings.encode = encodeStart.secondsUntilNow
        return ProcessedImage(data: data, format: format, size: image.size, timings: timings)
    }

    /// Runs library work, turning its error into a 422.
    static func library<T>(_ body: () throws(WebImageError) -> T) throws(ImageServerError) -> T {
        do { return try body() } catch { throw unprocessable(error) }
    }

    /// Refuses geometry whose intermediate or result would exceed the pixel budget.
    private func checkWork(_ geometry: ResultGeometry, frames: Int) throws(ImageServerError) {
        let budget = max(limits.maxSourceResolution, limits.maxResultDimension * limits.maxResultDimension)
        for size in [geometry.scaledSize, geometry.resultSize] {
            let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
            let (total, overflow2) = pixels.multipliedReportingOverflow(by: frames)
            guard !overflow, !overflow2, total <= budget else {
                throw ImageServerError(status: 422, "the result would be too large")
            }
        }
    }

    static func unprocessable(_ error: WebImageError) -> ImageServerError {
        switch error.code {
        case .tooLarge: ImageServerError(status: 422, "source image is too large")
        case .unsupportedFormat: ImageServerError(status: 422, "source image format is not supported")
        default: ImageServerError(status: 422, "source image cannot be processed")
        }
    }
}

extension ContinuousClock.Instant {
    /// Seconds from this instant to now.
    var secondsUntilNow: Double {
        let elapsed = (ContinuousClock.now - self).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }
}
