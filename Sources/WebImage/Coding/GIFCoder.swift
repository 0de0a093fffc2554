import CGIF
import Foundation

/// GIF decoding with giflib: every frame composited (disposal and transparency applied), durations, loop count; and
/// encoding (see `GIFEncoder`: palettes by libimagequant with dithering, durations, loop count).
///
/// Frames are read record by record, so the limits are checked from the screen and frame descriptors before any
/// pixel memory is allocated. A file cut short after its first complete frame keeps the frames it has, as browsers
/// show them; one cut inside its first frame is ``WebImageError/Code/truncatedData``.
public struct GIFCoder: ImageCoding {
    /// Creates the coder.
    public init() {}

    public func canDecode(_ format: ImageFormat) -> Bool { format == .gif }

    public func canEncode(_ format: ImageFormat) -> Bool { format == .gif }

    public func encode(_ image: Image, as format: ImageFormat, options: EncodingOptions) throws(WebImageError) -> Data {
        try GIFEncoder.encode(image, options: options)
    }

    public func info(of data: Data) throws(WebImageError) -> ImageInfo {
        try GIFFile.open(data) { file throws(WebImageError) in
            ImageInfo(
                format: .gif, width: Int(file.pointee.SWidth), height: Int(file.pointee.SHeight),
                frameCount: data.withUnsafeBytes(GIFFrameCount.count))
        }
    }

    public func decode(_ data: Data, options: DecodingOptions) throws(WebImageError) -> Image {
        try GIFFile.open(data) { file throws(WebImageError) in
            var reader = GIFFrameReader(file: file, options: options)
            return try reader.read()
        }
    }

    public func decodePartial(_ data: Data, options: DecodingOptions) throws(WebImageError) -> Image? {
        try? decode(
            data, options: DecodingOptions(targetSize: options.targetSize, firstFrameOnly: true, limits: options.limits)
        )
    }
}

/// Opens giflib on bytes in memory.
enum GIFFile {
    /// Where the read callback is in the bytes.
    private struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
    }

    /// Runs `body` with an open giflib decoder over `data`, closing it afterwards.
    static func open<T>(
        _ data: Data, _ body: (UnsafeMutablePointer<GifFileType>) throws(WebImageError) -> T
    ) throws(WebImageError) -> T {
        let result: Result<T, WebImageError> = data.withUnsafeBytes { bytes in
            var cursor = Cursor(bytes: bytes)
            return withUnsafeMutablePointer(to: &cursor) { cursorPointer in
                var status: Int32 = 0
                guard
                    let file = DGifOpen(
                        cursorPointer,
                        { file, buffer, wanted in
                            guard let file, let buffer, let user = file.pointee.UserData else { return 0 }
                            let cursor = user.assumingMemoryBound(to: Cursor.self)
                            let count = min(Int(wanted), cursor.pointee.bytes.count - cursor.pointee.offset)
                            guard count > 0 else { return 0 }
                            let source = cursor.pointee.bytes.baseAddress! + cursor.pointee.offset
                            UnsafeMutableRawPointer(buffer).copyMemory(from: source, byteCount: count)
                            cursor.pointee.offset += count
                            return Int32(count)
                        }, &status)
                else {
                    return .failure(error(status, "cannot read the GIF header"))
                }
                defer { DGifCloseFile(file, nil) }
                do throws(WebImageError) { return .success(try body(file)) } catch { return .failure(error) }
            }
        }
        return try result.get()
    }

    /// The error for a giflib status code.
    static func error(_ status: Int32, _ context: String) -> WebImageError {
        let reason = GifErrorString(status).map { String(cString: $0) } ?? "error \(status)"
        let truncated = status == D_GIF_ERR_READ_FAILED || status == D_GIF_ERR_EOF_TOO_SOON
        return WebImageError(truncated ? .truncatedData : .corruptData, "\(context): \(reason)")
    }
}
