import Foundation
import WebImage

/// The `/info` answer for one source: the fields the options ask for, in imgproxy Pro's order and names.
enum InfoReport {
    /// The smallest side a decode for the pixel analyses keeps (the largest any analysis samples).
    static let analysisSide = 512

    /// The JSON of `data` under `options`, decoding only what the options need, at most `maxResolution` pixels.
    ///
    /// - Throws: ``ImageServerError``: 422 for a source whose digest is not `hashsum`'s, that is not an image the
    ///   server reads, beyond the resolution limit, or (when the pixels or the frames are needed) that does not
    ///   decode. Metadata that does not decode is left out.
    static func make(
        _ data: Data, options: InfoOptions, maxResolution: Int, coders: ImageCoders = .default
    ) throws(ImageServerError) -> JSONValue {
        if let kind = options.hashsumType,
            InfoHashsums.digest(kind, of: data) != options.expectedHashsum.lowercased()
        {
            throw ImageServerError(status: 422, "source image hashsum mismatch")
        }
        let info: ImageInfo
        do { info = try coders.info(of: data) } catch {
            throw ImageServerError(status: 422, "source is not a supported image")
        }
        let (pixels, overflow) = info.width.multipliedReportingOverflow(by: info.height)
        guard !overflow, pixels <= maxResolution else {
            throw ImageServerError(status: 422, "source image resolution is too big")
        }
        let needsMetadata = options.exif || options.iptc || options.xmp
        var image: Image?
        // Headers count frames but GIF's, whose frames are counted by decoding them (as image requests decode them).
        let countsFrames = options.pagesNumber && info.format == .gif
        if options.decodesPixels || needsMetadata || countsFrames {
            // Shrink-on-load: the analyses resample to at most 512 pixels a side, and metadata needs no pixels.
            let side = options.decodesPixels ? analysisSide : 1
            let decoding = DecodingOptions(
                targetSize: PixelSize(width: side, height: side), firstFrameOnly: !countsFrames,
                appliesOrientation: false, limits: DecodingLimits(maxPixelsPerFrame: maxResolution),
                keepsMetadata: needsMetadata)
            do { image = try coders.decode(data, options: decoding) } catch {
                if options.decodesPixels || countsFrames {
                    throw ImageServerError(status: 422, "source image could not be decoded: \(error.message)")
                }
            }
        }
        var fields: [(String, JSONValue)] = []
        if options.size { fields.append(("size", .int(data.count))) }
        if options.format {
            fields.append(("format", .string(info.format.name)))
            fields.append(("mime_type", .string(info.format.mimeType)))
        }
        if options.dimensions {
            fields.append(("width", .int(info.uprightSize.width)))
            fields.append(("height", .int(info.uprightSize.height)))
            fields.append(("orientation", .int(info.orientation.rawValue)))
        }
        if options.exif {
            let exif = image?.exif.map { EXIFFields.fields($0, canonicalNames: options.exifCanonicalNames) } ?? []
            if !exif.isEmpty { fields.append(("exif", .object(exif.map { ($0.0, .string($0.1)) }))) }
        }
        if options.iptc, let resources = image?.iptc {
            let iptc = IPTCFields.fields(resources)
            if !iptc.isEmpty { fields.append(("iptc", .object(iptc))) }
            let photoshop = IPTCDatasets.photoshop(resources)
            if !photoshop.isEmpty { fields.append(("photoshop", .object(photoshop))) }
        }
        if options.xmp {
            let xmp = image?.xmp.map(XMPFields.fields) ?? []
            if !xmp.isEmpty { fields.append(("xmp", .object(xmp.map { ($0.0, .object($0.1)) }))) }
        }
        let traits = SourceTraits(data, hasAlpha: info.hasAlpha)
        if options.colorspace { fields.append(("colorspace", .string(traits.colorspace))) }
        if options.bands { fields.append(("bands", .int(traits.bands))) }
        if options.sampleFormat { fields.append(("sample_format", .string(traits.sampleFormat))) }
        if options.pagesNumber {
            fields.append(("pages_number", .int(countsFrames ? image?.frames.count ?? 1 : info.frameCount)))
        }
        if options.alpha {
            fields.append(("alpha", .bool(traits.hasAlpha)))
            if options.checksTransparency { fields.append(("has_transparency", .bool(!(image?.isOpaque ?? true)))) }
        }
        // Decoded as stored, so that the EXIF block keeps its orientation; the analyses see the upright picture.
        if let image { fields += try pixelFields(image.pixels.oriented(from: info.orientation), options: options) }
        if !options.hashsums.isEmpty {
            fields.append(
                ("hashsums", .object(options.hashsums.map { ($0, .string(InfoHashsums.digest($0, of: data))) })))
        }
        return .object(fields)
    }

    /// The fields computed from the pixels of the first frame.
    private static func pixelFields(
        _ pixels: PixelBuffer, options: InfoOptions
    ) throws(ImageServerError) -> [(String, JSONValue)] {
        func rgba(_ color: RGBA) -> JSONValue.RGBAComponents {
            (Int(color.red), Int(color.green), Int(color.blue), Int(color.alpha))
        }
        var fields: [(String, JSONValue)] = []
        if options.paletteColors > 0 {
            do {
                let palette = try pixels.palette(maximumColors: options.paletteColors)
                fields.append(("palette", .array(palette.map { JSONValue.color(rgba($0), alpha: true) })))
            } catch {
                throw ImageServerError(status: 500, "palette failed: \(error.message)")
            }
        }
        if options.average {
            let average = pixels.averageColor(ignoringTransparent: options.averageIgnoresTransparent)
            fields.append(("average", .color(rgba(average), alpha: true)))
        }
        if options.dominantColors {
            let colors = DominantColors(pixels, buildsMissing: options.buildsMissingColors)
            let named: [(String, RGBA?)] = [
                ("dark_muted", colors.darkMuted), ("dark_vibrant", colors.darkVibrant),
                ("light_muted", colors.lightMuted), ("light_vibrant", colors.lightVibrant), ("muted", colors.muted),
                ("vibrant", colors.vibrant),
            ]
            fields.append(
                (
                    "dominant_colors",
                    .object(
                        named.compactMap { name, color in
                            color.map { (name, JSONValue.color(rgba($0), alpha: false)) }
                        })
                ))
        }
        if options.blurHashX > 0, options.blurHashY > 0 {
            do {
                let hash = try BlurHash.encode(pixels, xComponents: options.blurHashX, yComponents: options.blurHashY)
                fields.append(("blurhash", .string(hash)))
            } catch {
                throw ImageServerError(status: 404, error.message)
            }
        }
        if options.thumbHash {
            fields.append(("thumb_hash", .string(Hex.string(ThumbHash.encode(pixels)).uppercased())))
        }
        if options.perceptualHash { fields.append(("perceptual_hash", .string(PerceptualHash(pixels).hex))) }
        return fields
    }
}
