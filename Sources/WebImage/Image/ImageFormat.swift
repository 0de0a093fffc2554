/// An image file format, identified by its magic bytes.
///
/// A struct with static members rather than an enum, so that formats can be added without breaking callers.
public struct ImageFormat: Hashable, Sendable, CustomStringConvertible {
    /// A short lowercase name: `jpeg`, `png`, `gif`, `webp`, …
    public let name: String

    /// Creates a format with the given short name.
    public init(_ name: String) { self.name = name }

    public var description: String { name }

    /// JPEG (JFIF, EXIF).
    public static let jpeg = ImageFormat("jpeg")
    /// PNG, and APNG when it has an animation control chunk.
    public static let png = ImageFormat("png")
    /// GIF, still or animated.
    public static let gif = ImageFormat("gif")
    /// WebP, lossy or lossless, still or animated.
    public static let webp = ImageFormat("webp")
    /// TIFF (recognised, not decoded).
    public static let tiff = ImageFormat("tiff")
    /// HEIF with HEVC images (HEIC).
    public static let heic = ImageFormat("heic")
    /// AVIF (HEIF with AV1 images).
    public static let avif = ImageFormat("avif")
    /// BMP (Windows and OS/2 bitmaps).
    public static let bmp = ImageFormat("bmp")
    /// ICO, and CUR cursors (the same container).
    public static let ico = ImageFormat("ico")
    /// JPEG XL, a bare codestream or in its ISOBMFF container.
    public static let jxl = ImageFormat("jxl")
    /// SVG, rendered by ``SVGCoder``.
    public static let svg = ImageFormat("svg")
    /// Bytes that match no known image format.
    public static let unknown = ImageFormat("unknown")

    /// The usual file extension (without the dot).
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        default: name
        }
    }

    /// Whether the format can store an animation (GIF, APNG, animated WebP, AVIF sequences, JPEG XL), so an encoder
    /// can keep every frame.
    public var supportsAnimation: Bool {
        switch self {
        case .gif, .png, .webp, .avif, .jxl: true
        default: false
        }
    }

    /// The MIME type, where one is registered; for ICO the common `image/x-icon` (which imgproxy and browsers use)
    /// rather than IANA's `image/vnd.microsoft.icon`.
    public var mimeType: String {
        switch self {
        case .svg: "image/svg+xml"
        case .ico: "image/x-icon"
        case .unknown: "application/octet-stream"
        default: "image/\(name)"
        }
    }

    /// The format a file extension names (`jpg`, `jpeg`, `png`, `webp`, `gif`, `bmp`, `ico`, `cur`, …), or `nil`.
    public init?(fileExtension ext: String) {
        switch ext.lowercased() {
        case "jpg", "jpeg", "jpe": self = .jpeg
        case "png", "apng": self = .png
        case "gif": self = .gif
        case "webp": self = .webp
        case "tif", "tiff": self = .tiff
        case "heic", "heif": self = .heic
        case "avif": self = .avif
        case "bmp", "dib": self = .bmp
        case "ico", "cur": self = .ico
        case "jxl": self = .jxl
        case "svg": self = .svg
        default: return nil
        }
    }
}
