import Foundation

/// How the pipeline decodes: the options, and the upright size of the source when a shrink-on-load target was
/// chosen from it.
struct DecodingPlan: Sendable {
    let options: DecodingOptions
    let sourceSize: PixelSize?
}

extension ImagePipeline {
    /// The decoding options: limits, first frame, and a shrink-on-load target from the thumbnail size, the
    /// transformer's ``ImageTransforming/minimumSourceSize(for:)`` or ``ImageOptions/scaleDownLargeImages``.
    func decodingOptions(for data: Data) -> @Sendable () throws(WebImageError) -> DecodingPlan {
        let plain = plainDecodingOptions
        let thumbnail = request.thumbnailSize
        let transformer = transformer
        let scaleDown = options.contains(.scaleDownLargeImages) ? manager.configuration.scaleDownLimit : nil
        let coders = coders
        return { () throws(WebImageError) -> DecodingPlan in
            var decoding = plain
            guard thumbnail != nil || transformer != nil || scaleDown != nil else {
                return DecodingPlan(options: decoding, sourceSize: nil)
            }
            let size = try coders.info(of: data).uprightSize
            var targets: [PixelSize] = []
            if let thumbnail { targets.append(Self.fitted(size, inside: thumbnail)) }
            if let needed = transformer?.minimumSourceSize(for: size) { targets.append(needed) }
            if let scaleDown, size.area > scaleDown {
                let factor = (Double(scaleDown) / Double(size.area)).squareRoot()
                targets.append(
                    PixelSize(
                        width: max(1, Int(Double(size.width) * factor)),
                        height: max(1, Int(Double(size.height) * factor))))
            }
            decoding.targetSize = targets.max { $0.area < $1.area }
            return DecodingPlan(options: decoding, sourceSize: size)
        }
    }

    private static func fitted(_ size: PixelSize, inside box: PixelSize) -> PixelSize {
        guard box.width > 0, box.height > 0, size.width > 0, size.height > 0 else { return size }
        let factor = min(Double(box.width) / Double(size.width), Double(box.height) / Double(size.height), 1)
        return PixelSize(
            width: max(1, Int((Double(size.width) * factor).rounded())),
            height: max(1, Int((Double(size.height) * factor).rounded())))
    }

    /// The limits and the first-frame switch, without any target size: how cached finished images are decoded.
    var plainDecodingOptions: DecodingOptions {
        DecodingOptions(
            firstFrameOnly: options.contains(.decodeFirstFrameOnly),
            limits: request.decodingLimits ?? manager.configuration.decodingLimits,
            appliesPNGGamma: manager.configuration.appliesPNGGamma)
    }

    /// `transformer` applied to `image`, a decode of a source of `sourceSize` pixels. When shrink-on-load made the
    /// decode smaller than the source, the transformer plans from the source's own size
    /// (``ImageTransforming/transform(_:shrunkFrom:)``), so that the result is the same size as from a full decode.
    static func apply(
        _ transformer: any ImageTransforming, to image: Image, sourceSize: PixelSize?
    ) throws(WebImageError) -> Image {
        guard let sourceSize, sourceSize != image.size else { return try transformer.transform(image) }
        return try transformer.transform(image, shrunkFrom: sourceSize)
    }
}
