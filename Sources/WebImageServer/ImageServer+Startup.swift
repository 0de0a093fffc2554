import WebImage

extension ImageServer {
    /// The library's coders, with the loaders of ``ImageServerConfiguration/unlimitedFormats`` unlimited.
    static func coders(_ configuration: ImageServerConfiguration) -> ImageCoders {
        var coders = ImageCoders.default
        let unlimited = configuration.unlimitedFormats
        if unlimited.contains(.png) { coders = coders.adding(PNGCoder(unlimited: true)) }
        if unlimited.contains(.tiff) { coders = coders.adding(TIFFCoder(unlimited: true)) }
        if unlimited.contains(.svg) {
            let bytes = min(max(configuration.limits.maxSourceFileSize, 10 << 20), 1 << 30)
            coders = coders.adding(SVGCoder(maxBytes: bytes))
        }
        return coders
    }

    /// Fetches and decodes the watermark and fallback images given as URLs (``WatermarkSource/url(_:)``), under the
    /// source limits and address rules, as imgproxy fetches them at start; `webimage serve` calls it before it
    /// listens and does not start when it throws. Without it, each is fetched by the first request that needs it.
    ///
    /// - Throws: the setting whose image cannot be fetched or is not an image the server reads.
    public func prepare() async throws(ImageServerConfigurationError) {
        if let watermarks = responder.watermarks {
            do { _ = try await watermarks.image() } catch {
                throw ImageServerConfigurationError("watermark-url", "cannot be used: \(error.message)")
            }
        }
        if let fallback = responder.fallback {
            do { _ = try await fallback.data() } catch {
                throw ImageServerConfigurationError("fallback-image-url", "cannot be used: \(error.message)")
            }
        }
    }
}
