import Foundation
import Logging

extension ImageManager {
    /// The parts and policies of a manager: loader, cache, coders, decode concurrency, limits, logging.
    public struct Configuration: Sendable {
        /// Loads bytes for URLs. Default: HTTP(S), file and `data:` loaders.
        public var loader: any ImageLoading
        /// Where images and their bytes are kept. Default: ``ImageCache`` in the `default` namespace.
        public var cache: any ImageCaching
        /// Decodes and encodes. Default: ``ImageCoders/default``.
        public var coders: any ImageCoding
        /// How many decodes and transforms run at once. Default: the number of cores.
        public var decodeConcurrency: Int
        /// Limits applied to every decode (a request's context may override them).
        public var decodingLimits: DecodingLimits
        /// The most pixels ``ImageOptions/scaleDownLargeImages`` lets a decoded image have. Default: 16 megapixels.
        public var scaleDownLimit: Int
        /// Whether permanent failures are remembered so the URL is not loaded again. Default: `true`.
        public var remembersFailedURLs: Bool
        /// The shortest time between two progressive previews. Default: 0.1 s.
        public var previewInterval: Duration
        /// Convert PNGs described by `gAMA` and `cHRM` alone to sRGB at every decode, as browsers do
        /// (``DecodingOptions/appliesPNGGamma``). Default: `true`. The caches do not tell the two apart: give each
        /// setting its own cache.
        public var appliesPNGGamma: Bool
        /// Where the manager logs.
        public var logger: Logger

        /// A configuration with the given parts; the others are defaults.
        public init(
            loader: any ImageLoading = ImageManager.defaultLoader(),
            cache: any ImageCaching = ImageCache(namespace: "default"),
            coders: any ImageCoding = ImageCoders.default,
            decodeConcurrency: Int = ProcessInfo.processInfo.activeProcessorCount,
            decodingLimits: DecodingLimits = .default,
            scaleDownLimit: Int = 16_000_000,
            remembersFailedURLs: Bool = true,
            previewInterval: Duration = .milliseconds(100),
            appliesPNGGamma: Bool = true,
            logger: Logger = Logger(label: "swift-web-image")
        ) {
            self.loader = loader
            self.cache = cache
            self.coders = coders
            self.decodeConcurrency = decodeConcurrency
            self.decodingLimits = decodingLimits
            self.scaleDownLimit = scaleDownLimit
            self.remembersFailedURLs = remembersFailedURLs
            self.previewInterval = previewInterval
            self.appliesPNGGamma = appliesPNGGamma
            self.logger = logger
        }
    }

    /// HTTP(S) (one shared ``HTTPImageLoader``), file and `data:` loaders.
    public static func defaultLoader() -> ImageLoaders {
        ImageLoaders([HTTPImageLoader(), FileImageLoader(), DataURLImageLoader()])
    }
}
