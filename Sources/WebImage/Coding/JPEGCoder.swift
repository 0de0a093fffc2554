import CJPEG
import Foundation

/// JPEG decoding and encoding with libjpeg-turbo's TurboJPEG API.
///
/// Decodes baseline, progressive, grayscale and CMYK/YCCK JPEGs, applies the EXIF orientation, and shrinks on load
/// with DCT scaling (1/8 to 7/8) when ``DecodingOptions/targetSize`` allows, or by 1/2, 1/4 or 1/8 as
/// ``DecodingOptions/shrinkFactor`` says. An `APP2` ICC profile is converted to
/// sRGB (CMYK through its profile) unless ``DecodingOptions/keepsColorProfile`` is set. Truncated data is an error for a full
/// decode and a preview for ``decodePartial(_:options:)``.
public struct JPEGCoder: ImageCoding {
    /// Creates the coder.
    public init() {}

    /// At most 500 progressive scans: a small file with thousands of scans would take minutes (libjpeg-turbo's own
    /// guard against that denial of service).
    private static let decompressFlags = Int32(TJFLAG_LIMITSCANS)

    public func canDecode(_ format: ImageFormat) -> Bool { format == .jpeg }

    public func canEncode(_ format: ImageFormat) -> Bool { format == .jpeg }

    public func info(of data: Data) throws(WebImageError) -> ImageInfo {
        try data.withImageBytes { bytes throws(WebImageError) in
            let handle = try Handle.decompressor()
            defer { tjDestroy(handle.raw) }
            let header = try handle.header(bytes)
            return ImageInfo(
                format: .jpeg, width: header.width, height: header.height,
                orientation: EXIFReader.jpegOrientation(bytes), hasAlpha: false)
        }
    }

    public func decode(_ data: Data, options: DecodingOptions) throws(WebImageError) -> Image {
        try data.withImageBytes { bytes throws(WebImageError) in try decode(bytes, options: options, partial: false) }
    }

    public func decodePartial(_ data: Data, options: DecodingOptions) throws(WebImageError) -> Image? {
        try? data.withImageBytes { bytes throws(WebImageError) in try decode(bytes, options: options, partial: true) }
    }

    public func encode(_ image: Image, as format: ImageFormat, options: EncodingOptions) throws(WebImageError) -> Data {
        guard let handle = tjInitCompress() else { throw WebImageError(.encodingFailed, "TurboJPEG did not start") }
        defer { tjDestroy(handle) }
        let color = EncodingColor(image, options: options)
        let source = color.frames[0].pixels
        let pixels = image.isOpaque ? source : source.flattened(over: .white)
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { tjFree(output) }
        let quality = Int32(min(max(options.quality, 1), 100))
        let status = pixels.bytes.withUnsafeBufferPointer { source in
            tjCompress2(
                handle, source.baseAddress, Int32(pixels.width), 0, Int32(pixels.height), Int32(TJPF_RGBA.rawValue),
                &output, &size, Int32(TJSAMP_420.rawValue), quality, options.progressive ? TJFLAG_PROGRESSIVE : 0)
        }
        guard status == 0, let output else {
            throw WebImageError(.encodingFailed, "JPEG encoding failed: \(String(cString: tjGetErrorStr2(handle)))")
        }
        var data = Data(bytes: output, count: Int(size))
        if let profile = color.profile { data = try ICCProfileWriter.jpeg(data, profile: profile) }
        if let iptc = color.iptc { data = try IPTCMetadata.jpeg(data, resources: iptc) }
        if let xmp = color.xmp { data = try XMPMetadata.jpeg(data, xmp: xmp) }
        if let exif = color.exif { data = try EXIFMetadata.jpeg(data, exif: exif) }
        return data
    }

    private func decode(
        _ bytes: UnsafeRawBufferPointer, options: DecodingOptions, partial: Bool
    ) throws(WebImageError) -> Image {
        let handle = try Handle.decompressor()
        defer { tjDestroy(handle.raw) }
        let header = try handle.header(bytes)
        let orientation = options.appliesOrientation ? EXIFReader.jpegOrientation(bytes) : .up
        let target = ShrinkOnLoad.storedTarget(options.targetSize, orientation: orientation)
        let size: PixelSize
        if let denominator = ShrinkOnLoad.jpegDenominator(options.shrinkFactor) {
            size = PixelSize(
                width: (header.width + denominator - 1) / denominator,
                height: (header.height + denominator - 1) / denominator)
        } else {
            size =
                ShrinkOnLoad.choose(
                    width: header.width, height: header.height, target: target, factors: Handle.shrinkingFactors
                ) { dimension, factor in
                    (dimension * Int(factor.num) + Int(factor.denom) - 1) / Int(factor.denom)
                }.size
        }
        try options.limits.checkFrame(width: size.width, height: size.height)
        let isCMYK = header.colorspace == Int32(TJCS_CMYK.rawValue) || header.colorspace == Int32(TJCS_YCCK.rawValue)
        if EXIFReader.jpegIsProgressive(bytes) {
            // A progressive decode keeps every DCT coefficient of the whole image (2 bytes each, per component)
            // whatever the scale it outputs: a 1.5 MB progressive 20000x20000 JPEG took 844 MB for a thumbnail.
            let components = header.colorspace == Int32(TJCS_GRAY.rawValue) ? 1 : (isCMYK ? 4 : 3)
            let (pixels, overflow) = header.width.multipliedReportingOverflow(by: header.height)
            guard !overflow, pixels <= options.limits.maxTotalBytes / (2 * components) else {
                throw WebImageError(
                    .tooLarge,
                    "a progressive \(header.width)x\(header.height) JPEG needs more than the limit of "
                        + "\(options.limits.maxTotalBytes) bytes for its coefficients")
            }
        }
        let format = isCMYK ? TJPF_CMYK : TJPF_RGBA
        let inverted = isCMYK && EXIFReader.jpegHasAdobeMarker(bytes)
        let color = ColorHandling(
            profile: ICCProfileReader.jpeg(bytes),
            source: isCMYK
                ? (inverted ? .invertedCMYK : .cmyk) : header.colorspace == Int32(TJCS_GRAY.rawValue) ? .grey : .rgba,
            options: options)
        var failure: WebImageError?
        var pixels = PixelBuffer(width: size.width, height: size.height) { output in
            let status = tjDecompress2(
                handle.raw, bytes.baseAddress, UInt(bytes.count), output.baseAddress, Int32(size.width), 0,
                Int32(size.height), Int32(format.rawValue), Self.decompressFlags)
            if status != 0 { failure = handle.decodeError(bytes, partial: partial) }
            guard failure == nil else { return }
            if isCMYK, color.transform == nil {
                CMYKConverter.convertInPlace(output, inverted: inverted)
            } else {
                color.apply(output)
            }
        }
        if let failure { throw failure }
        pixels = pixels.oriented(from: orientation)
        return Image(
            frames: [ImageFrame(pixels: pixels)], format: .jpeg, sourceOrientation: orientation, isOpaque: true,
            colorProfile: color.keptProfile,
            exif: EXIFMetadata.kept(EXIFReader.jpegEXIF(bytes), options: options),
            xmp: XMPMetadata.kept(XMPMetadata.jpegPacket(bytes), options: options),
            iptc: IPTCMetadata.kept(bytes, options: options))
    }
}

/// A TurboJPEG handle and the calls made on it.
private struct Handle {
    let raw: tjhandle

    /// Factors at most 1, as TurboJPEG offers them (1/8, 1/4, 3/8, … 7/8).
    static let shrinkingFactors: [tjscalingfactor] = {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return [] }
        return UnsafeBufferPointer(start: factors, count: Int(count)).filter { $0.num < $0.denom }
    }()

    static func decompressor() throws(WebImageError) -> Handle {
        guard let raw = tjInitDecompress() else { throw WebImageError(.corruptData, "TurboJPEG did not start") }
        return Handle(raw: raw)
    }

    func header(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) -> (width: Int, height: Int, colorspace: Int32) {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let status = tjDecompressHeader3(
            raw, bytes.baseAddress, UInt(bytes.count), &width, &height, &subsampling, &colorspace)
        guard status == 0 else {
            let message = String(cString: tjGetErrorStr2(raw))
            let code: WebImageError.Code = JPEGStructure.isTruncated(bytes) ? .truncatedData : .corruptData
            throw WebImageError(code, "invalid JPEG header: \(message)")
        }
        return (Int(width), Int(height), colorspace)
    }

    /// The error for a failed decompression, or `nil` when the failure is a warning the image survives.
    ///
    /// Warnings about damaged data the decoder recovered from are accepted, as browsers do; running out of data is
    /// accepted only for a partial decode.
    func decodeError(_ bytes: UnsafeRawBufferPointer, partial: Bool) -> WebImageError? {
        let message = String(cString: tjGetErrorStr2(raw))
        let truncated = JPEGStructure.isTruncated(bytes)
        if tjGetErrorCode(raw) == Int32(TJERR_WARNING.rawValue) {
            if !truncated || partial { return nil }
        }
        return WebImageError(truncated ? .truncatedData : .corruptData, "JPEG decoding failed: \(message)")
    }
}
