import Foundation

/// AVIF decoding and encoding with libavif (dav1d to decode, libaom to encode).
///
/// Decodes stills and sequences (every frame, with its duration), with or without alpha, at 8, 10 or 12 bits per
/// sample (reduced to 8; a still's 10 or 12 bits kept as 16 with ``DecodingOptions/keepsHighBitDepth``, its profile
/// then applied at 16 bits). The container's `irot`/`imir` are applied like an EXIF orientation, and an ICC profile
/// in `colr` is converted to sRGB unless ``DecodingOptions/keepsColorProfile`` is set. The limits are checked from
/// the container before any frame is decoded. AVIF has no decoder-side scaling: with ``DecodingOptions/targetSize``
/// a thumbnail the file carries that still covers it is decoded instead of a still or a first frame (as imgproxy's
/// scale on load takes it), through libheif (`HEIFThumbnail`), as HEIC's; else the size is left to the resampler. With
/// ``DecodingOptions/prefersThumbnail``, its smallest thumbnail is decoded whatever its size.
///
/// Encodes with ``EncodingOptions/quality`` mapped to libavif's quantizer and ``EncodingOptions/speed`` (default
/// ``defaultSpeed``); animated images become AVIF sequences; a still with 16-bit pixels is written at 12 bits.
public struct AVIFCoder: ImageCoding {
    /// The encoder speed used when ``EncodingOptions/speed`` is `nil`.
    ///
    /// Chosen from the size/time table in `docs/benchmarks.md`: from speed 8 libavif runs libaom in real-time mode,
    /// about 60 times faster than speed 7 on a 1080p photo with files of the same size (and a quarter larger than
    /// speed 4's), the only speed that fits encoding on request.
    public static let defaultSpeed = 8

    /// Creates the coder.
    public init() {}

    public func canDecode(_ format: ImageFormat) -> Bool { format == .avif }

    public func canEncode(_ format: ImageFormat) -> Bool { format == .avif }

    public func info(of data: Data) throws(WebImageError) -> ImageInfo {
        try data.withImageBytes { bytes throws(WebImageError) in try AVIFDecoder(bytes).info }
    }

    public func decode(_ data: Data, options: DecodingOptions) throws(WebImageError) -> Image {
        try data.withImageBytes { bytes throws(WebImageError) in
            if options.prefersThumbnail,
                let thumbnail = try HEIFThumbnail.decode(bytes, options: options, format: .avif)
            {
                return thumbnail
            }
            let decoder = try AVIFDecoder(bytes, readsMetadata: options.keepsMetadata)
            // A thumbnail stands for a still, or for the first frame when only that is asked for.
            if options.targetSize != nil, options.firstFrameOnly || decoder.info.frameCount == 1,
                let thumbnail = try HEIFThumbnail.decode(bytes, options: options, format: .avif)
            {
                return thumbnail
            }
            return try decoder.decode(options: options)
        }
    }

    public func encode(_ image: Image, as format: ImageFormat, options: EncodingOptions) throws(WebImageError) -> Data {
        try AVIFEncoder.encode(image, options: options)
    }
}
