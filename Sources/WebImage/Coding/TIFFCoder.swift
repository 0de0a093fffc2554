import CTIFF
import Foundation

/// TIFF decoding and encoding with libtiff, from and to memory.
///
/// Decodes the first page (directory) of a TIFF or BigTIFF file, either byte order, in strips or tiles, with any
/// compression the system's libtiff was built with (none, LZW, Deflate, PackBits, JPEG, CCITT fax, …): 1- to 16-bit
/// grey, palettes, RGB, YCbCr, CMYK, Lab, with associated or unassociated alpha (see `TIFFPixels` for which layouts
/// are read directly and which through libtiff's RGBA conversion), and interleaved grey and RGB of 32-bit unsigned
/// or floating-point samples (floats as linear light, see `TIFFDeepPixels`). Deeper samples are reduced to 8 bits,
/// except interleaved grey and RGB ones with ``DecodingOptions/keepsHighBitDepth``, kept at 16 bits
/// (``ImageFrame/deepPixels``, written back as 16-bit samples by the encoder). The
/// `Orientation` tag is applied unless ``DecodingOptions/appliesOrientation`` is off; an embedded ICC profile is
/// converted to sRGB (CMYK through its profile) or kept, as ``DecodingOptions/keepsColorProfile`` says. Limits are
/// checked from the directory before the pixels are allocated, libtiff allocates no single block beyond
/// ``DecodingLimits/maxTotalBytes``, and its errors become the ``WebImageError`` thrown (its warnings are dropped):
/// nothing is written to stderr. A file cut short is ``WebImageError/Code/truncatedData`` even where libtiff would
/// read what is left. ``ImageInfo/frameCount`` is the number of pages.
///
/// With ``DecodingOptions/keepsMetadata`` the XMP packet and the IPTC datasets are kept (`TIFFMetadata`), as libvips
/// reads them (a TIFF's EXIF is not).
///
/// Writes 8-bit RGB, or RGBA with unassociated alpha, Deflate-compressed with a predictor (`TIFFEncoder`), with the
/// XMP packet and IPTC when ``EncodingOptions/embedsMetadata`` or ``EncodingOptions/keepsCopyright`` give them.
public struct TIFFCoder: ImageCoding {
    /// Creates the coder; `unlimited` lifts libtiff's allocation limit (``isUnlimited``).
    public init(unlimited: Bool = false) { isUnlimited = unlimited }

    /// Whether libtiff may allocate blocks of any size (tag arrays, strips, tiles), as libvips' `unlimited` lifts its
    /// TIFF loader's memory limit (imgproxy's `IMGPROXY_TIFF_UNLIMITED`); otherwise no single block is larger than
    /// ``DecodingLimits/maxTotalBytes`` (at least 1 MiB). The frame limits are checked either way. Default `false`.
    public let isUnlimited: Bool

    public func canDecode(_ format: ImageFormat) -> Bool { format == .tiff }

    public func canEncode(_ format: ImageFormat) -> Bool { format == .tiff }

    public func info(of data: Data) throws(WebImageError) -> ImageInfo {
        try data.withImageBytes { bytes throws(WebImageError) in
            let file = try TIFFFile(bytes, limits: .default, unlimited: isUnlimited)
            return ImageInfo(
                format: .tiff, width: file.width, height: file.height, frameCount: file.pageCount,
                orientation: file.orientation, hasAlpha: file.alpha != .none)
        }
    }

    public func decode(_ data: Data, options: DecodingOptions) throws(WebImageError) -> Image {
        try data.withImageBytes { bytes throws(WebImageError) in
            let file = try TIFFFile(bytes, limits: options.limits, unlimited: isUnlimited)
            let orientation = options.appliesOrientation ? file.orientation : .up
            let frame: ImageFrame
            let color: ColorHandling
            // libtiff's RGBA conversion reads no 32-bit samples: those are read at 16 bits either way.
            if options.keepsHighBitDepth || (file.wideSamples.map { $0 != .unsigned16 } ?? false),
                let deep = try TIFFDeepPixels.decode(file, options: options)
            {
                let pixels = deep.pixels.oriented(from: orientation)
                frame = options.keepsHighBitDepth ? ImageFrame(deepPixels: pixels) : ImageFrame(pixels: pixels.narrowed)
                color = deep.color
            } else {
                let decoded = try TIFFPixels.decode(file, limits: options.limits, options: options)
                (frame, color) = (ImageFrame(pixels: decoded.pixels.oriented(from: orientation)), decoded.color)
            }
            guard !file.stream.readPastEnd else {
                throw WebImageError(.truncatedData, "the TIFF file ends before its first page does")
            }
            let metadata = TIFFMetadata.read(file.handle, options: options)
            return Image(
                frames: [frame], format: .tiff,
                sourceOrientation: orientation, isOpaque: file.alpha == .none ? true : nil,
                colorProfile: color.keptProfile, xmp: metadata.xmp, iptc: metadata.iptc)
        }
    }

    public func encode(_ image: Image, as format: ImageFormat, options: EncodingOptions) throws(WebImageError) -> Data {
        try TIFFEncoder.encode(image, options: options)
    }
}
