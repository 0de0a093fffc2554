import CJXL
import Foundation

/// JPEG XL decoding and encoding with libjxl, from and to memory.
///
/// Decodes bare codestreams and the ISOBMFF container, lossy (VarDCT) and lossless (modular), 8 to 16 bits per
/// sample (reduced to 8 bits by libjxl, rounding; a still of more than 8 bits decoded to 16 with
/// ``DecodingOptions/keepsHighBitDepth``), grey or colour, with alpha, animations (every frame composited by
/// libjxl, with its duration; or only the first), and files made from a JPEG for reconstruction (their pixels).
/// The codestream's orientation is applied unless ``DecodingOptions/appliesOrientation`` is off. Colours: lossy
/// images are handed out as sRGB by libjxl itself; images stored in another space (an ICC profile or one of the
/// codestream's enumerated encodings, which libjxl describes as an ICC profile) are converted to sRGB through that
/// profile, or keep it as ``DecodingOptions/keepsColorProfile`` says. With ``DecodingOptions/keepsMetadata``, the
/// container's `Exif` and `xml ` boxes (plain or Brotli-compressed `brob`) become ``Image/exif`` and ``Image/xmp``
/// (`JXLMetadata`); the EXIF orientation is never applied, the codestream's is. The limits are checked from the
/// basic information before libjxl decodes any pixel, and the frames so far against them before each frame is
/// decoded. libjxl allocates through a memory budget derived from the limits (`JXLDecoder.memoryCap(for:)`), and
/// since libjxl 0.7 allocates its image planes outside it, the planes the header declares (colour and extra
/// channels, 4 bytes a sample) are checked against that budget first: a refusal either way is
/// ``WebImageError/Code/tooLarge``. The bytes are fed from memory in one piece; libjxl runs on one thread per core.
/// JPEG XL has no cheap shrink-on-load (its 1:8 "DC" preview would be a progressive decode, not a smaller one), so
/// ``DecodingOptions/targetSize`` is left to the resampler. A file cut short is
/// ``WebImageError/Code/truncatedData``, other invalid data ``WebImageError/Code/corruptData``. Debian's libjxl 0.7
/// also prints a line or a few to stderr for most invalid files (`…: JXL_FAILURE: …`): its debug messages are
/// compiled in (it is built without `NDEBUG`) and written with `fprintf(stderr, …)`, with no API or setting to turn
/// them off; see `docs/reliability.md`.
///
/// Encodes with ``EncodingOptions/quality`` mapped to a Butteraugli distance as `cjxl -q` maps it
/// (``distance(forQuality:)``; quality 100 or ``EncodingOptions/lossless`` is lossless), and
/// ``EncodingOptions/speed`` to libjxl's effort (``effort(forSpeed:)``, default ``defaultSpeed``); animated images
/// stay animated, alpha is written when some pixel is transparent, the profile when the options embed it, and the EXIF
/// block and XMP packet (uncompressed `Exif` and `xml ` boxes) when they embed metadata or keep the copyright.
public struct JXLCoder: ImageCoding {
    /// The encoder speed used when ``EncodingOptions/speed`` is `nil`: effort 3.
    ///
    /// Chosen from the measures in `docs/benchmarks.md`: on a 6-megapixel photo at distance 1.9, efforts 3 to 7
    /// make files within 2 % of one another, and effort 3 takes half the time of libjxl's default 7.
    public static let defaultSpeed = 7

    /// Creates the coder.
    public init() {}

    public func canDecode(_ format: ImageFormat) -> Bool { format == .jxl }

    public func canEncode(_ format: ImageFormat) -> Bool { format == .jxl }

    public func info(of data: Data) throws(WebImageError) -> ImageInfo {
        try data.withImageBytes { bytes throws(WebImageError) in
            let decoder = try JXLDecoder(
                bytes, events: [JXL_DEC_FRAME], memoryCap: JXLDecoder.memoryCap(for: .default))
            let frames = try decoder.countFrames(limit: DecodingLimits.default.maxFrames)
            return ImageInfo(
                format: .jxl, width: decoder.size.width, height: decoder.size.height, frameCount: frames,
                orientation: decoder.orientation, hasAlpha: decoder.hasAlpha)
        }
    }

    public func decode(_ data: Data, options: DecodingOptions) throws(WebImageError) -> Image {
        try data.withImageBytes { bytes throws(WebImageError) in
            let memoryCap = JXLDecoder.memoryCap(for: options.limits)
            let decoder = try JXLDecoder(
                bytes, events: JXLDecoder.decodingEvents,
                threads: ProcessInfo.processInfo.activeProcessorCount, memoryCap: memoryCap)
            return try decoder.decode(options: options) {
                JXLMetadata.read(bytes, options: options, memoryCap: memoryCap)
            }
        }
    }

    public func encode(_ image: Image, as format: ImageFormat, options: EncodingOptions) throws(WebImageError) -> Data {
        try JXLEncoder.encode(image, options: options)
    }

    /// The Butteraugli distance for a 0...100 quality, as `cjxl -q` maps it: 0.1 + (100 − q) × 0.09 from quality 30
    /// up (quality 90 is distance 1, "visually lossless"), a steeper curve below, at most libjxl's 15.
    public static func distance(forQuality quality: Int) -> Float {
        let q = Float(min(max(quality, 0), 100))
        let distance = q >= 30 ? 0.1 + (100 - q) * 0.09 : 53.0 / 3000.0 * q * q - 23.0 / 20.0 * q + 25.0
        return min(distance, 15)
    }

    /// libjxl's effort (1 fastest to 9 slowest) for a speed of 0 (slowest) to 10 (fastest), as the AVIF encoder's
    /// speed runs: 0 is effort 9, 10 is effort 1.
    public static func effort(forSpeed speed: Int) -> Int {
        9 - (min(max(speed, 0), 10) * 8 + 5) / 10
    }
}
