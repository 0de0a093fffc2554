import CGIF
import Foundation

/// Writes GIF with giflib: one quantized, dithered palette per frame (``GIFQuantizer``), per-frame delays in
/// centiseconds, and a `NETSCAPE2.0` loop count for animations.
///
/// Every frame covers the whole canvas. Frames with transparent pixels ask for "restore to background" disposal, so
/// the previous frame does not show through; opaque ones leave the canvas as it is.
enum GIFEncoder {
    /// Where the write callback appends.
    private final class Sink {
        var data = Data()
    }

    static func encode(_ image: Image, options: EncodingOptions) throws(WebImageError) -> Data {
        let frames = EncodingColor(image, options: options).frames
        let quantized = try frames.map { (frame) throws(WebImageError) in
            try GIFQuantizer(frame.pixels, quality: options.quality)
        }
        let sink = Sink()
        var status: Int32 = 0
        let opened = withExtendedLifetime(sink) {
            EGifOpen(
                Unmanaged.passUnretained(sink).toOpaque(),
                { file, bytes, count in
                    guard let file, let bytes, count > 0, let user = file.pointee.UserData else { return 0 }
                    Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue().data.append(bytes, count: Int(count))
                    return count
                }, &status)
        }
        guard let file = opened else { throw WebImageError(.encodingFailed, "giflib could not start (\(status))") }
        var closed = false
        defer { if !closed { EGifCloseFile(file, nil) } }
        try withExtendedLifetime(sink) { () throws(WebImageError) in
            EGifSetGifVersion(file, true)
            try check(
                EGifPutScreenDesc(file, Int32(image.width), Int32(image.height), 8, 0, nil), file, "screen descriptor")
            if frames.count > 1, image.loopCount != 1 {
                try putLoopCount(file, min(max(image.loopCount, 0), 65535))
            }
            for (frame, colors) in zip(frames, quantized) {
                try putFrame(file, colors, width: image.width, height: image.height, duration: frame.duration)
            }
            closed = true
            guard EGifCloseFile(file, &status) == GIF_OK else {
                throw WebImageError(.encodingFailed, "GIF encoding failed (giflib error \(status))")
            }
        }
        return sink.data
    }

    private static func putLoopCount(_ file: UnsafeMutablePointer<GifFileType>, _ count: Int) throws(WebImageError) {
        var name = Array("NETSCAPE2.0".utf8)
        var loop: [UInt8] = [1, UInt8(count & 0xFF), UInt8(count >> 8)]
        try check(EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE), file, "loop count")
        try check(EGifPutExtensionBlock(file, 11, &name), file, "loop count")
        try check(EGifPutExtensionBlock(file, 3, &loop), file, "loop count")
        try check(EGifPutExtensionTrailer(file), file, "loop count")
    }

    private static func putFrame(
        _ file: UnsafeMutablePointer<GifFileType>, _ colors: GIFQuantizer, width: Int, height: Int, duration: Double
    ) throws(WebImageError) {
        let centiseconds = duration.isFinite ? Int32(min(max((duration * 100).rounded(), 0), 65535)) : 0
        var control = GraphicsControlBlock(
            DisposalMode: colors.transparentIndex == nil ? DISPOSE_DO_NOT : DISPOSE_BACKGROUND, UserInputFlag: false,
            DelayTime: centiseconds, TransparentColor: Int32(colors.transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
        var extensionBytes = [UInt8](repeating: 0, count: 4)
        let length = EGifGCBToExtension(&control, &extensionBytes)
        try check(EGifPutExtension(file, GRAPHICS_EXT_FUNC_CODE, Int32(length), &extensionBytes), file, "frame delay")
        // The colour table size must be a power of two, at least 2.
        var size = 2
        while size < colors.palette.count { size *= 2 }
        let entries = (0..<size).map { index in
            let color = index < colors.palette.count ? colors.palette[index] : (0, 0, 0)
            return GifColorType(Red: color.0, Green: color.1, Blue: color.2)
        }
        guard let map = GifMakeMapObject(Int32(size), entries) else {
            throw WebImageError(.encodingFailed, "giflib could not allocate a colour table")
        }
        defer { GifFreeMapObject(map) }
        try check(
            EGifPutImageDesc(file, 0, 0, Int32(width), Int32(height), false, map), file, "frame descriptor")
        var indices = colors.indices
        try indices.withUnsafeMutableBufferPointer { (rows) throws(WebImageError) in
            for row in 0..<height {
                try check(EGifPutLine(file, rows.baseAddress! + row * width, Int32(width)), file, "frame pixels")
            }
        }
    }

    private static func check(
        _ status: Int32, _ file: UnsafeMutablePointer<GifFileType>, _ what: String
    ) throws(WebImageError) {
        guard status != GIF_OK else { return }
        throw WebImageError(
            .encodingFailed, "GIF encoding failed writing the \(what) (giflib error \(file.pointee.Error))")
    }
}
