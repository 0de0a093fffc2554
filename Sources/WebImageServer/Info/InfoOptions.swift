/// What an `/info` request asks for: imgproxy Pro's info options, with its defaults (docs/info.md).
public struct InfoOptions: Sendable, Hashable {
    /// `size`/`s`: the source's size in bytes. Default on.
    public var size = true
    /// `format`/`f`: the format and its MIME type. Default on.
    public var format = true
    /// `dimensions`/`d`: width and height after orientation, and the EXIF orientation. Default on.
    public var dimensions = true
    /// `exif`: the EXIF fields. Default on.
    public var exif = true
    /// `exif`'s second argument: canonical tag names (`DateTimeOriginal`) rather than titles. Default off.
    public var exifCanonicalNames = false
    /// `iptc`: the IPTC-IIM datasets by title and the Photoshop resolution. Default on.
    public var iptc = true
    /// `xmp`: the XMP properties by namespace prefix. Default on.
    public var xmp = true
    /// `colorspace`/`cs`. Default off.
    public var colorspace = false
    /// `bands`/`b`. Default off.
    public var bands = false
    /// `sample_format`/`sf`. Default off.
    public var sampleFormat = false
    /// `pages_number`/`pn`. Default off.
    public var pagesNumber = false
    /// `alpha`/`a`: whether the image has an alpha channel. Default off.
    public var alpha = false
    /// `alpha`'s second argument: also whether any pixel is not opaque. Default off.
    public var checksTransparency = false
    /// `palette`/`p`: at most this many colours (2...256); 0 is none. Default 0.
    public var paletteColors = 0
    /// `average`/`avg`: the average colour. Default off.
    public var average = false
    /// `average`'s second argument: leave fully transparent pixels out. Default on.
    public var averageIgnoresTransparent = true
    /// `dominant_colors`/`dc`. Default off.
    public var dominantColors = false
    /// `dominant_colors`'s second argument: build missing colours from found ones. Default off.
    public var buildsMissingColors = false
    /// `blurhash`/`bh`: the horizontal components (0...9); the hash is made when both counts are above 0.
    public var blurHashX = 0
    /// `blurhash`/`bh`: the vertical components (0...9).
    public var blurHashY = 0
    /// `thumb_hash`/`th`. Default off.
    public var thumbHash = false
    /// `perceptual_hash`/`phash`/`ph`. Default off.
    public var perceptualHash = false
    /// `calc_hashsums`/`chs`: `md5`, `sha1`, `sha256`, `sha512`, each once, in the order given.
    public var hashsums: [String] = []
    /// `hashsum`/`hs`'s type (`md5`, `sha1`, `sha256`, `sha512`): the source's digest must be ``expectedHashsum``,
    /// else 422; `nil` (`none`, the default) checks nothing.
    public var hashsumType: String?
    /// `hashsum`/`hs`'s expected digest, hexadecimal (compared ignoring case).
    public var expectedHashsum = ""
    /// `cachebuster`/`cb`: changes the URL, nothing else.
    public var cacheBuster = ""
    /// `expires`/`exp`: a Unix time after which the URL is refused (404); `nil` never.
    public var expires: Int?
    /// `max_src_resolution`/`msr`, in pixels (with the server's security options allowed).
    public var maxSourceResolution: Int?
    /// `max_src_file_size`/`msfs`, in bytes (with the server's security options allowed).
    public var maxSourceFileSize: Int?
    /// The presets applied, in order.
    public var usedPresets: [String] = []

    /// The defaults.
    public init() {}

    /// Whether any answer needs the pixels decoded.
    var decodesPixels: Bool {
        checksTransparency || paletteColors > 0 || average || dominantColors || thumbHash || perceptualHash
            || (blurHashX > 0 && blurHashY > 0)
    }
}
