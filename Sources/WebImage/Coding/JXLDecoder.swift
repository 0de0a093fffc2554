import CJXL
import Foundation

/// One libjxl decoder over bytes that outlive it: reads the basic information, checks the limits, then decodes
/// frames to 8-bit RGBA.
///
/// libjxl composites animation frames itself (coalescing), so every frame comes out as a whole picture. It is asked
/// to keep the orientation (the caller turns the pixels as for every other format) and to hand out straight alpha.
struct JXLDecoder: ~Copyable {
    private let raw: OpaquePointer
    private let runner: UnsafeMutableRawPointer?
    /// The basic information, read when the decoder is made.
    let basic: JxlBasicInfo

    /// Starts a decoder on `bytes` (which must stay valid while it lives), with `threads` worker threads (none
    /// when 1), and reads up to the basic information; `events` are the further events the caller will ask for.
    init(_ bytes: UnsafeRawBufferPointer, events: [JxlDecoderStatus], threads: Int = 1) throws(WebImageError) {
        guard let raw = JxlDecoderCreate(nil) else { throw WebImageError(.tooLarge, "libjxl could not start") }
        let runner = threads > 1 ? JxlThreadParallelRunnerCreate(nil, threads) : nil
        var basic = JxlBasicInfo()
        do throws(WebImageError) {
            try Self.start(raw, bytes: bytes, events: events, runner: runner)
            guard JxlDecoderGetBasicInfo(raw, &basic) == JXL_DEC_SUCCESS else {
                throw WebImageError(.corruptData, "the JPEG XL header is unreadable")
            }
        } catch {
            JxlDecoderDestroy(raw)
            if let runner { JxlThreadParallelRunnerDestroy(runner) }
            throw error
        }
        (self.raw, self.runner, self.basic) = (raw, runner, basic)
    }

    /// Sets the decoder up and runs it to the basic information.
    private static func start(
        _ raw: OpaquePointer, bytes: UnsafeRawBufferPointer, events: [JxlDecoderStatus],
        runner: UnsafeMutableRawPointer?
    ) throws(WebImageError) {
        let wanted = ([JXL_DEC_BASIC_INFO] + events).reduce(Int32(0)) { $0 | Int32($1.rawValue) }
        let parallel = runner.map { JxlDecoderSetParallelRunner(raw, JxlThreadParallelRunner, $0) } ?? JXL_DEC_SUCCESS
        guard JxlDecoderSubscribeEvents(raw, wanted) == JXL_DEC_SUCCESS,
            JxlDecoderSetKeepOrientation(raw, Int32(JXL_TRUE)) == JXL_DEC_SUCCESS,
            JxlDecoderSetUnpremultiplyAlpha(raw, Int32(JXL_TRUE)) == JXL_DEC_SUCCESS, parallel == JXL_DEC_SUCCESS,
            JxlDecoderSetInput(raw, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count) == JXL_DEC_SUCCESS
        else { throw WebImageError(.corruptData, "libjxl refused its settings") }
        // The input is not closed: libjxl then reports a file cut short as needing more input (truncatedData) rather
        // than as an error, and still ends a complete file with success.
        try advance(raw, to: JXL_DEC_BASIC_INFO)
    }

    deinit {
        JxlDecoderDestroy(raw)
        if let runner { JxlThreadParallelRunnerDestroy(runner) }
    }

    /// The size of the stored pixels (before orientation).
    var size: PixelSize { PixelSize(width: Int(basic.xsize), height: Int(basic.ysize)) }

    /// The orientation the codestream declares.
    var orientation: ImageOrientation { ImageOrientation(rawValue: Int(basic.orientation.rawValue)) ?? .up }

    /// Whether the image has an alpha channel.
    var hasAlpha: Bool { basic.alpha_bits > 0 }

    /// Whether the colour channels are one grey channel.
    var isGrey: Bool { basic.num_color_channels == 1 }

    /// Counts the frames by reading their headers only (the decoder must have been made with `JXL_DEC_FRAME` as its
    /// only further event), up to `limit`; one for a still.
    func countFrames(limit: Int) throws(WebImageError) -> Int {
        guard basic.have_animation != 0 else { return 1 }
        var count = 0
        while count <= limit {
            let status = JxlDecoderProcessInput(raw)
            if status == JXL_DEC_SUCCESS { break }
            try check(status)
            guard status == JXL_DEC_FRAME else { throw Self.unexpected }
            count += 1
        }
        return max(count, 1)
    }

    /// Decodes every frame (or the first), checking the limits before any pixel buffer is allocated. The decoder
    /// must have been made with the colour encoding, frame and full image events.
    func decode(options: DecodingOptions) throws(WebImageError) -> Image {
        let size = self.size
        try options.limits.checkFrame(width: size.width, height: size.height)
        try next(expecting: JXL_DEC_COLOR_ENCODING)
        let color = try colorHandling(options: options)
        var format = JxlPixelFormat(
            num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        let animated = basic.have_animation != 0
        let tick = animated ? Self.tickLength(basic.animation) : 0
        var frames: [ImageFrame] = []
        while true {
            let status = JxlDecoderProcessInput(raw)
            if status == JXL_DEC_SUCCESS { break }
            try check(status)
            guard status == JXL_DEC_FRAME else { throw Self.unexpected }
            try options.limits.checkAnimation(width: size.width, height: size.height, frames: frames.count + 1)
            var header = JxlFrameHeader()
            guard JxlDecoderGetFrameHeader(raw, &header) == JXL_DEC_SUCCESS else {
                throw WebImageError(.corruptData, "a JPEG XL frame header is unreadable")
            }
            try next(expecting: JXL_DEC_NEED_IMAGE_OUT_BUFFER)
            let pixels = try framePixels(size: size, format: &format, color: color)
            frames.append(ImageFrame(pixels: pixels, duration: animated ? Double(header.duration) * tick : 0))
            if options.firstFrameOnly { break }
        }
        guard !frames.isEmpty else { throw WebImageError(.truncatedData, "the JPEG XL file has no frame") }
        let orientation = options.appliesOrientation ? self.orientation : .up
        return Image(
            frames: frames.map { ImageFrame(pixels: $0.pixels.oriented(from: orientation), duration: $0.duration) },
            loopCount: animated && frames.count > 1 ? Int(basic.animation.num_loops) : 0, format: .jxl,
            sourceOrientation: orientation, isOpaque: hasAlpha ? nil : true, colorProfile: color.keptProfile)
    }

    /// Runs the decoder into a new buffer until the frame is complete, then converts its colours.
    private func framePixels(
        size: PixelSize, format: inout JxlPixelFormat, color: ColorHandling
    ) throws(WebImageError) -> PixelBuffer {
        var needed = 0
        guard JxlDecoderImageOutBufferSize(raw, &format, &needed) == JXL_DEC_SUCCESS,
            needed == size.width * size.height * 4
        else { throw WebImageError(.corruptData, "a JPEG XL frame's size differs from the image's") }
        var failure: WebImageError?
        let pixels = PixelBuffer(width: size.width, height: size.height) { [raw] output in
            guard JxlDecoderSetImageOutBuffer(raw, &format, output.baseAddress, output.count) == JXL_DEC_SUCCESS else {
                failure = WebImageError(.corruptData, "libjxl refused the output buffer")
                return
            }
            do throws(WebImageError) {
                try Self.advance(raw, to: JXL_DEC_FULL_IMAGE)
                color.apply(output)
            } catch {
                failure = error
                output.update(repeating: 0)
            }
        }
        if let failure { throw failure }
        return pixels
    }

    /// How the decoded pixels' colours are handled: with no converting preference, the decoder hands out its own
    /// sRGB for XYB-coded (lossy) images, so that only images stored in another space go through a profile.
    private func colorHandling(options: DecodingOptions) throws(WebImageError) -> ColorHandling {
        let source: ColorSource = isGrey ? .grey : .rgba
        if basic.uses_original_profile == 0 {
            var original = JxlColorEncoding()
            let isEnum =
                JxlDecoderGetColorAsEncodedProfile(raw, nil, JXL_COLOR_PROFILE_TARGET_ORIGINAL, &original)
                == JXL_DEC_SUCCESS
            if !(options.keepsColorProfile && isEnum) {
                var srgb = JxlColorEncoding()
                JxlColorEncodingSetToSRGB(&srgb, isGrey ? Int32(JXL_TRUE) : Int32(JXL_FALSE))
                _ = JxlDecoderSetPreferredColorProfile(raw, &srgb)
            }
        }
        var encoding = JxlColorEncoding()
        if JxlDecoderGetColorAsEncodedProfile(raw, nil, JXL_COLOR_PROFILE_TARGET_DATA, &encoding) == JXL_DEC_SUCCESS,
            Self.isSRGB(encoding)
        {
            return ColorHandling(profile: nil, source: source, options: options)
        }
        var length = 0
        guard JxlDecoderGetICCProfileSize(raw, nil, JXL_COLOR_PROFILE_TARGET_DATA, &length) == JXL_DEC_SUCCESS,
            length > 0, length <= ICCProfileReader.maxSize
        else { return ColorHandling(profile: nil, source: source, options: options) }
        var profile = Data(count: length)
        let status = profile.withUnsafeMutableBytes {
            JxlDecoderGetColorAsICCProfile(
                raw, nil, JXL_COLOR_PROFILE_TARGET_DATA, $0.bindMemory(to: UInt8.self).baseAddress, length)
        }
        guard status == JXL_DEC_SUCCESS else { return ColorHandling(profile: nil, source: source, options: options) }
        return ColorHandling(profile: profile, source: source, options: options)
    }

    /// Whether an encoded colour space is sRGB (or grey with sRGB's curve), as decoded pixels need no conversion.
    private static func isSRGB(_ encoding: JxlColorEncoding) -> Bool {
        let curve = encoding.transfer_function == JXL_TRANSFER_FUNCTION_SRGB
        let white = encoding.white_point == JXL_WHITE_POINT_D65
        if encoding.color_space == JXL_COLOR_SPACE_GRAY { return curve && white }
        return encoding.color_space == JXL_COLOR_SPACE_RGB && curve && white
            && encoding.primaries == JXL_PRIMARIES_SRGB
    }

    /// Seconds per tick of an animation header, 0 when the header is unusable.
    private static func tickLength(_ animation: JxlAnimationHeader) -> Double {
        guard animation.tps_numerator > 0, animation.tps_denominator > 0 else { return 0 }
        return Double(animation.tps_denominator) / Double(animation.tps_numerator)
    }

    private func next(expecting event: JxlDecoderStatus) throws(WebImageError) {
        try Self.advance(raw, to: event)
    }

    /// Processes input until `event`; any other event on the way is an error, as is the end of the file.
    private static func advance(_ raw: OpaquePointer, to event: JxlDecoderStatus) throws(WebImageError) {
        let status = JxlDecoderProcessInput(raw)
        guard status != event else { return }
        try check(status)
        throw WebImageError(.corruptData, "the JPEG XL file ends before its first frame does")
    }

    private func check(_ status: JxlDecoderStatus) throws(WebImageError) { try Self.check(status) }

    /// An event that was not asked for: libjxl out of step with this decoder, never to be waited out.
    private static let unexpected = WebImageError(.corruptData, "libjxl reported an event out of order")

    private static func check(_ status: JxlDecoderStatus) throws(WebImageError) {
        switch status {
        case JXL_DEC_ERROR: throw WebImageError(.corruptData, "invalid JPEG XL data")
        case JXL_DEC_NEED_MORE_INPUT: throw WebImageError(.truncatedData, "the JPEG XL file is cut short")
        default: return
        }
    }
}
