import CSPNG
import Foundation

/// PNG decoding and encoding with libspng, and APNG animation decoding.
///
/// Decodes every colour type and bit depth (16-bit samples are rounded to 8, or kept beside their rounding with
/// ``DecodingOptions/keepsHighBitDepth``; a frame with 16-bit pixels is written with 16-bit samples), palette and
/// `tRNS` transparency and Adam7 interlacing; rejects CRC errors in any chunk. An `eXIf` orientation is applied. APNG
/// files decode to all their frames (see `APNGDecoder`) unless ``DecodingOptions/firstFrameOnly`` is set; animated
/// images encode as APNG (`APNGEncoder`).
public struct PNGCoder: ImageCoding {
    /// Whether libspng's limits on chunks (64 MiB for one chunk, and for the chunks it keeps in all) are lifted, as
    /// libvips' `unlimited` lifts its PNG loader's (imgproxy's `IMGPROXY_PNG_UNLIMITED`). Default `false`.
    public let isUnlimited: Bool

    /// Creates the coder; `unlimited` lifts libspng's chunk limits (``isUnlimited``).
    public init(unlimited: Bool = false) { isUnlimited = unlimited }

    public func canDecode(_ format: ImageFormat) -> Bool { format == .png }

    public func canEncode(_ format: ImageFormat) -> Bool { format == .png }

    public func info(of data: Data) throws(WebImageError) -> ImageInfo {
        let chunks = try PNGChunks(data, checksums: false)
        let header = try chunks.header()
        return ImageInfo(
            format: .png, width: header.width, height: header.height,
            frameCount: chunks.animationControl()?.frameCount ?? 1,
            orientation: chunks.exif.map { $0.withUnsafeBytes(EXIFReader.orientation(in:)) } ?? .up,
            hasAlpha: header.colorType & 4 != 0 || header.colorType == 3 || chunks.has("tRNS"))
    }

    public func decode(_ data: Data, options: DecodingOptions) throws(WebImageError) -> Image {
        let chunks = try PNGChunks(data)
        if !options.firstFrameOnly, chunks.animationControl() != nil {
            return try APNGDecoder(chunks: chunks, options: options, unlimited: isUnlimited).decode()
        }
        let frame: ImageFrame
        let orientation: ImageOrientation
        let profile: Data?
        if options.keepsHighBitDepth,
            let (deep, exif, kept) = try Self.decodeDeep(
                data, options: options, unlimited: isUnlimited)
        {
            orientation = options.appliesOrientation ? exif : .up
            (frame, profile) = (ImageFrame(deepPixels: deep.oriented(from: orientation)), kept)
        } else {
            let (pixels, exif, kept) = try Self.decodeStill(
                data, limits: options.limits, colorOptions: options, unlimited: isUnlimited)
            orientation = options.appliesOrientation ? exif : .up
            (frame, profile) = (ImageFrame(pixels: pixels.oriented(from: orientation)), kept)
        }
        return Image(
            frames: [frame], format: .png,
            sourceOrientation: orientation, colorProfile: profile,
            exif: chunks.exif.flatMap { block in
                block.withUnsafeBytes { EXIFMetadata.kept($0, options: options) }
            },
            xmp: options.keepsMetadata
                ? chunks.xmp.flatMap { packet in packet.withUnsafeBytes { XMPMetadata.kept($0, options: options) } }
                : nil)
    }

    public func encode(_ image: Image, as format: ImageFormat, options: EncodingOptions) throws(WebImageError) -> Data {
        if image.isAnimated && !options.firstFrameOnly {
            return try APNGEncoder.encode(image, options: options)
        }
        guard let context = spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue)) else {
            throw WebImageError(.encodingFailed, "libspng did not start")
        }
        defer { spng_ctx_free(context) }
        let color = EncodingColor(image, options: options)
        let pixels = color.frames[0].pixels
        let samples: [UInt8]
        let colorType: spng_color_type
        var palette: PNGPalette?
        if let deep = color.frames[0].deepPixels, options.paletteColors == nil {
            (samples, colorType) = Self.deepSamples(deep)
        } else {
            let opaque = pixels.isOpaque
            if let colors = options.paletteColors { palette = try PNGPalette(pixels, colors: colors) }
            samples = palette?.indices ?? (opaque ? Self.dropAlpha(pixels) : pixels.bytes)
            colorType =
                palette != nil
                ? SPNG_COLOR_TYPE_INDEXED : opaque ? SPNG_COLOR_TYPE_TRUECOLOR : SPNG_COLOR_TYPE_TRUECOLOR_ALPHA
        }
        let deep = palette == nil && color.frames[0].deepPixels != nil
        var header = spng_ihdr(
            width: UInt32(pixels.width), height: UInt32(pixels.height), bit_depth: deep ? 16 : 8,
            color_type: UInt8(colorType.rawValue), compression_method: 0, filter_method: 0,
            interlace_method: options.progressive ? 1 : 0)
        spng_set_option(context, SPNG_ENCODE_TO_BUFFER, 1)
        spng_set_ihdr(context, &header)
        if let palette { Self.setPalette(palette, on: context) }
        var iccp = spng_iccp()
        var profile = color.profile.map { $0.map { CChar(bitPattern: $0) } } ?? []
        if !profile.isEmpty {
            withUnsafeMutableBytes(of: &iccp.profile_name) { $0.copyBytes(from: "ICC Profile".utf8) }
            iccp.profile_len = profile.count
        }
        var exifBytes = color.exif.map { $0.map { CChar(bitPattern: $0) } } ?? []
        var status = samples.withUnsafeBytes { bytes in
            profile.withUnsafeMutableBufferPointer { icc in
                if icc.count > 0 {
                    iccp.profile = icc.baseAddress
                    spng_set_iccp(context, &iccp)
                }
                return exifBytes.withUnsafeMutableBufferPointer { block in
                    if block.count > 0 {
                        var exif = spng_exif(length: block.count, data: block.baseAddress)
                        spng_set_exif(context, &exif)
                    }
                    // 16-bit samples are written as stored, big-endian (SPNG_FMT_RAW).
                    return spng_encode_image(
                        context, bytes.baseAddress, bytes.count, Int32((deep ? SPNG_FMT_RAW : SPNG_FMT_PNG).rawValue),
                        Int32(SPNG_ENCODE_FINALIZE.rawValue))
                }
            }
        }
        var length = 0
        guard status == 0, let buffer = spng_get_png_buffer(context, &length, &status) else {
            throw WebImageError(.encodingFailed, "PNG encoding failed: \(String(cString: spng_strerror(status)))")
        }
        defer { free(buffer) }
        var png = Data(bytes: buffer, count: length)
        if let xmp = color.xmp {
            // libspng writes `iTXt` from NUL-terminated C strings (it measures the text with `strlen`), so the chunk
            // is built here, as the APNG writer builds it, and inserted after `IHDR` (signature 8 bytes, `IHDR` 25).
            var chunk = Data()
            PNGChunks.append("iTXt", XMPMetadata.pngPayload(xmp), to: &chunk)
            png.insert(contentsOf: chunk, at: png.startIndex + 33)
        }
        return png
    }

    /// Sets `palette` as the `PLTE` chunk and, when an entry is not opaque, the `tRNS` chunk.
    private static func setPalette(_ palette: PNGPalette, on context: OpaquePointer) {
        var plte = spng_plte()
        plte.n_entries = UInt32(palette.entries.count)
        withUnsafeMutableBytes(of: &plte.entries) { raw in
            let entries = raw.bindMemory(to: spng_plte_entry.self)
            for (index, entry) in palette.entries.enumerated() {
                entries[index] = spng_plte_entry(red: entry.red, green: entry.green, blue: entry.blue, alpha: 255)
            }
        }
        spng_set_plte(context, &plte)
        guard let last = palette.entries.lastIndex(where: { $0.alpha < 255 }) else { return }
        var trns = spng_trns()
        trns.n_type3_entries = UInt32(last + 1)
        withUnsafeMutableBytes(of: &trns.type3_alpha) { raw in
            for (index, entry) in palette.entries.prefix(last + 1).enumerated() { raw[index] = entry.alpha }
        }
        spng_set_trns(context, &trns)
    }

    /// Decodes a single PNG image (the default image of an APNG) to RGBA8, the `eXIf` orientation, and the `iCCP`
    /// profile when `colorOptions` keep it.
    ///
    /// With `colorOptions`, an `iCCP` profile is converted to sRGB (or kept, as they say); an `sRGB` chunk wins
    /// over `iCCP`, and `iCCP` over `gAMA` and `cHRM`, which are converted as browsers do (``PNGGammaProfile``) when
    /// ``DecodingOptions/appliesPNGGamma`` is set (the default), and otherwise ignored as libpng ignores them.
    /// `unlimited` lifts libspng's chunk limits.
    static func decodeStill(
        _ data: Data, limits: DecodingLimits, colorOptions: DecodingOptions? = nil, unlimited: Bool = false
    ) throws(WebImageError) -> (PixelBuffer, ImageOrientation, Data?) {
        guard let context = spng_ctx_new(0) else { throw WebImageError(.corruptData, "libspng did not start") }
        defer { spng_ctx_free(context) }
        return try data.withImageBytes { bytes throws(WebImageError) in
            try decode(bytes, context: context, limits: limits, colorOptions: colorOptions, unlimited: unlimited)
        }
    }

    private static func decode(
        _ bytes: UnsafeRawBufferPointer, context: OpaquePointer, limits: DecodingLimits,
        colorOptions: DecodingOptions?, unlimited: Bool
    ) throws(WebImageError) -> (PixelBuffer, ImageOrientation, Data?) {
        try check(spng_set_png_buffer(context, bytes.baseAddress, bytes.count))
        if !unlimited { spng_set_chunk_limits(context, 64 << 20, 64 << 20) }
        var header = spng_ihdr()
        try check(spng_get_ihdr(context, &header))
        let (width, height) = (Int(header.width), Int(header.height))
        try limits.checkFrame(width: width, height: height)
        let wide = header.bit_depth == 16
        let format = Int32(wide ? SPNG_FMT_RGBA16.rawValue : SPNG_FMT_RGBA8.rawValue)
        let flags = Int32(SPNG_DECODE_TRNS.rawValue)
        let isGrey =
            header.color_type == UInt8(SPNG_COLOR_TYPE_GRAYSCALE.rawValue)
            || header.color_type == UInt8(SPNG_COLOR_TYPE_GRAYSCALE_ALPHA.rawValue)
        let color = colorOptions.map { options in
            ColorHandling(
                profile: iccProfile(context, gamma: options.appliesPNGGamma), source: isGrey ? .grey : .rgba,
                options: options)
        }
        var status: Int32 = 0
        let pixels = PixelBuffer(width: width, height: height) { output in
            if wide {
                var samples = [UInt16](repeating: 0, count: width * height * 4)
                status = samples.withUnsafeMutableBytes {
                    spng_decode_image(context, $0.baseAddress, $0.count, format, flags)
                }
                for index in samples.indices { output[index] = UInt8((UInt32(samples[index]) * 255 + 32767) / 65535) }
            } else {
                status = spng_decode_image(context, output.baseAddress, output.count, format, flags)
            }
            if status == 0 { color?.apply(output) }
        }
        try check(status)
        var exif = spng_exif()
        let orientation: ImageOrientation =
            spng_get_exif(context, &exif) == 0 && exif.data != nil
            ? EXIFReader.orientation(in: UnsafeRawBufferPointer(start: exif.data, count: exif.length)) : .up
        return (pixels, orientation, color?.keptProfile)
    }

    /// The colour description of the file as an ICC profile: `nil` with an `sRGB` chunk, else the `iCCP` profile
    /// (decompressed by libspng), else, with `gamma`, one made from `gAMA` and `cHRM` (``PNGGammaProfile``).
    static func iccProfile(_ context: OpaquePointer, gamma applies: Bool) -> Data? {
        var srgb: UInt8 = 0
        if spng_get_srgb(context, &srgb) == 0 { return nil }
        var iccp = spng_iccp()
        if spng_get_iccp(context, &iccp) == 0, let profile = iccp.profile, iccp.profile_len > 0 {
            return Data(bytes: profile, count: min(iccp.profile_len, ICCProfileReader.maxSize))
        }
        var gamma: UInt32 = 0
        guard applies, spng_get_gama_int(context, &gamma) == 0 else { return nil }
        var chromaticities = spng_chrm_int()
        let hasChromaticities = spng_get_chrm_int(context, &chromaticities) == 0
        return PNGGammaProfile.profile(gamma: gamma, chromaticities: hasChromaticities ? chromaticities : nil)
    }

    static func check(_ status: Int32) throws(WebImageError) {
        guard status != 0 else { return }
        let message = String(cString: spng_strerror(status))
        switch status {
        case SPNG_IO_EOF.rawValue, Int32(SPNG_EOF.rawValue), Int32(SPNG_EIDAT_TOO_SHORT.rawValue):
            throw WebImageError(.truncatedData, "PNG data ends early: \(message)")
        case Int32(SPNG_EMEM.rawValue), Int32(SPNG_ECHUNK_LIMITS.rawValue):
            throw WebImageError(.tooLarge, "PNG exceeds memory limits: \(message)")
        default:
            throw WebImageError(.corruptData, "invalid PNG: \(message)")
        }
    }

    private static func dropAlpha(_ pixels: PixelBuffer) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: pixels.width * pixels.height * 3) { output, count in
            pixels.bytes.withUnsafeBufferPointer { source in
                var (from, to) = (0, 0)
                while from < source.count {
                    output[to] = source[from]
                    output[to + 1] = source[from + 1]
                    output[to + 2] = source[from + 2]
                    from += 4
                    to += 3
                }
            }
            count = pixels.width * pixels.height * 3
        }
    }
}
