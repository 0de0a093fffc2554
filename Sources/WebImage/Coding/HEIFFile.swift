import CHEIF
import Foundation

/// A libheif context reading bytes that outlive it.
struct HEIFFile: ~Copyable {
    private let context: OpaquePointer

    /// Reads the container of `bytes`, which must stay valid while the file lives.
    init(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        guard let context = heif_context_alloc() else { throw WebImageError(.tooLarge, "libheif could not start") }
        let error = heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil)
        guard error.code == heif_error_Ok else {
            // The error's message lives in the context: read it before freeing the context (fuzz-info found the
            // use after free).
            defer { heif_context_free(context) }
            try Self.check(error)
            throw WebImageError(.corruptData, "invalid HEIF data")
        }
        self.context = context
    }

    deinit { heif_context_free(context) }

    /// The primary image.
    func primaryImage() throws(WebImageError) -> HEIFImageHandle {
        var handle: OpaquePointer?
        try Self.check(heif_context_get_primary_image_handle(context, &handle))
        guard let handle else { throw WebImageError(.corruptData, "the HEIF file has no primary image") }
        return HEIFImageHandle(handle)
    }

    static func check(_ error: heif_error) throws(WebImageError) {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? "unknown error"
        switch (error.code, error.subcode) {
        case (_, heif_suberror_End_of_data):
            throw WebImageError(.truncatedData, "HEIF data ends early (\(message))")
        case (_, heif_suberror_Security_limit_exceeded), (heif_error_Memory_allocation_error, _):
            throw WebImageError(.tooLarge, "HEIF image over libheif's limits (\(message))")
        case (heif_error_Unsupported_feature, _), (heif_error_Unsupported_filetype, _):
            throw WebImageError(.unsupportedFormat, "unsupported HEIF feature (\(message))")
        default:
            throw WebImageError(.corruptData, "invalid HEIF data (\(message))")
        }
    }
}

/// One image of a HEIF file (the primary image or a thumbnail).
final class HEIFImageHandle {
    // Not Sendable: used within one decode call. Released when the handle goes.
    let raw: OpaquePointer

    init(_ raw: OpaquePointer) { self.raw = raw }

    deinit { heif_image_handle_release(raw) }

    /// The size once libheif's transformations (crop, rotation, mirroring) are applied.
    var size: PixelSize {
        PixelSize(width: Int(heif_image_handle_get_width(raw)), height: Int(heif_image_handle_get_height(raw)))
    }

    var hasAlpha: Bool { heif_image_handle_has_alpha_channel(raw) != 0 }

    /// The ICC profile of the `colr` box, if there is one.
    var iccProfile: Data? {
        let size = heif_image_handle_get_raw_color_profile_size(raw)
        guard size > 0, size <= 16 << 20 else { return nil }
        var profile = Data(count: size)
        let error = profile.withUnsafeMutableBytes { heif_image_handle_get_raw_color_profile(raw, $0.baseAddress) }
        return error.code == heif_error_Ok ? profile : nil
    }

    /// The content of the first metadata item of `type` (`Exif`, or `mime` of `contentType`) of at most `maxSize`
    /// bytes, if any.
    func metadata(type: String, contentType: String? = nil, maxSize: Int) -> Data? {
        let count = heif_image_handle_get_number_of_metadata_blocks(raw, type)
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: Int(min(count, 64)))
        let listed = Int(heif_image_handle_get_list_of_metadata_block_IDs(raw, type, &ids, Int32(ids.count)))
        for id in ids.prefix(min(listed, ids.count)) {
            if let contentType {
                guard let declared = heif_image_handle_get_metadata_content_type(raw, id),
                    String(cString: declared) == contentType
                else { continue }
            }
            let size = heif_image_handle_get_metadata_size(raw, id)
            guard size > 0, size <= maxSize else { continue }
            var data = Data(count: size)
            let error = data.withUnsafeMutableBytes { heif_image_handle_get_metadata(raw, id, $0.baseAddress) }
            if error.code == heif_error_Ok { return data }
        }
        return nil
    }

    /// The smallest thumbnail that still covers `target` (upright), or `nil`; with `any`, the smallest thumbnail
    /// whatever `target` is.
    func thumbnail(covering target: PixelSize?, any: Bool = false) throws(WebImageError) -> HEIFImageHandle? {
        let target = any ? PixelSize(width: 0, height: 0) : target
        guard let target, any || (target.width > 0 && target.height > 0) else { return nil }
        let count = Int(heif_image_handle_get_number_of_thumbnails(raw))
        guard count > 0, count <= 64 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif_image_handle_get_list_of_thumbnail_IDs(raw, &ids, Int32(count)))
        var best: HEIFImageHandle?
        for id in ids.prefix(listed) {
            var handle: OpaquePointer?
            guard heif_image_handle_get_thumbnail(raw, id, &handle).code == heif_error_Ok, let handle else {
                continue
            }
            let thumbnail = HEIFImageHandle(handle)
            let size = thumbnail.size
            if size.width >= target.width, size.height >= target.height, size.area < (best?.size.area ?? Int.max) {
                best = thumbnail
            }
        }
        return best
    }

    /// Decodes to 8-bit RGBA, transformations applied, converting colour as `color` says.
    func decodeRGBA(color: ColorHandling) throws(WebImageError) -> PixelBuffer {
        guard let options = heif_decoding_options_alloc() else {
            throw WebImageError(.tooLarge, "libheif could not start")
        }
        defer { heif_decoding_options_free(options) }
        options.pointee.convert_hdr_to_8bit = 1
        var image: OpaquePointer?
        try HEIFFile.check(heif_decode_image(raw, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options))
        guard let image else { throw WebImageError(.corruptData, "libheif returned no image") }
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride),
            width == size.width, height == size.height, Int(stride) >= width * 4
        else { throw WebImageError(.corruptData, "libheif decoded an unexpected image layout") }
        return PixelBuffer(width: width, height: height) { output in
            for row in 0..<height {
                (output.baseAddress! + row * width * 4).update(from: plane + row * Int(stride), count: width * 4)
            }
            color.apply(output)
        }
    }
}

extension HEIFImageHandle {
    /// This image's EXIF block and XMP packet as `options` keep them (none unless they keep metadata); libheif turns
    /// the pixels upright whatever the options say, so the kept EXIF orientation is always 1.
    func keptMetadata(options: DecodingOptions) -> (exif: Data?, xmp: Data?) {
        guard options.keepsMetadata else { return (nil, nil) }
        var upright = options
        upright.appliesOrientation = true
        let exif = metadata(type: "Exif", maxSize: EXIFMetadata.maxSize + 4 + EXIFMetadata.prefix.count)
        let xmp = metadata(type: "mime", contentType: "application/rdf+xml", maxSize: XMPMetadata.maxSize)
        return (
            exif.flatMap { block in
                block.withUnsafeBytes { EXIFMetadata.kept(EXIFMetadata.tiff(afterOffsetIn: $0), options: upright) }
            },
            xmp.flatMap { packet in packet.withUnsafeBytes { XMPMetadata.kept($0, options: options) } }
        )
    }
}
