import CJXL
import Foundation

/// One libjxl decoder over bytes that outlive it: reads the basic information, checks the limits, then decodes
/// frames to 8-bit RGBA.
///
/// libjxl composites animation frames itself (coalescing), so every frame comes out as a whole picture. It is asked
/// to keep the orientation (the caller turns the pixels as for every other format) and to hand out straight alpha.
///
/// libjxl allocates through a memory budget (``memoryCap(for:)``): an allocation that would pass it is refused, and
/// the decode ends in ``WebImageError/Code/tooLarge``. libjxl 0.7 (Debian 12) routes only its own objects through it
/// and allocates its image planes with plain `malloc`, so before any frame is decoded the planes the header declares
/// (``planeBytes``: colour and extra channels, 4 bytes a sample) are checked against the same cap.
struct JXLDecoder: ~Copyable {
    /// libjxl's decoder.
    let raw: OpaquePointer
    private let runner: UnsafeMutableRawPointer?
    /// The memory budget libjxl allocates through.
    let budget: UnsafeMutablePointer<wi_jxl_budget>
    /// The basic information, read when the decoder is made.
    let basic: JxlBasicInfo

    /// Starts a decoder on `bytes` (which must stay valid while it lives), with `threads` worker threads (none
    /// when 1) and a memory budget of `memoryCap` bytes, and reads up to the basic information; `events` are the
    /// further events the caller will ask for.
    init(
        _ bytes: UnsafeRawBufferPointer, events: [JxlDecoderStatus], threads: Int = 1, memoryCap: Int
    ) throws(WebImageError) {
        guard let budget = wi_jxl_budget_create(max(memoryCap, 0)) else {
            throw WebImageError(.tooLarge, "no memory for the JPEG XL decoder")
        }
        var manager = wi_jxl_budget_manager(budget)
        guard let raw = JxlDecoderCreate(&manager) else {
            let error = Self.startFailure(budget, "libjxl could not start")
            free(budget)
            throw error
        }
        let runner = threads > 1 ? JxlThreadParallelRunnerCreate(&manager, threads) : nil
        var basic = JxlBasicInfo()
        do throws(WebImageError) {
            if threads > 1, runner == nil { throw Self.startFailure(budget, "libjxl could not start its threads") }
            try Self.start(raw, bytes: bytes, events: events, runner: runner, budget: budget)
            guard JxlDecoderGetBasicInfo(raw, &basic) == JXL_DEC_SUCCESS else {
                throw WebImageError(.corruptData, "the JPEG XL header is unreadable")
            }
        } catch {
            JxlDecoderDestroy(raw)
            if let runner { JxlThreadParallelRunnerDestroy(runner) }
            free(budget)
            throw error
        }
        (self.raw, self.runner, self.budget, self.basic) = (raw, runner, budget, basic)
    }

    /// The events a full decode (``decode(options:metadata:)``) asks for.
    static let decodingEvents = [JXL_DEC_COLOR_ENCODING, JXL_DEC_FRAME, JXL_DEC_FULL_IMAGE]

    /// The bytes libjxl may allocate while decoding under `limits`: four times ``DecodingLimits/maxTotalBytes`` (a
    /// decoded RGBA byte is a 4-byte float sample in libjxl's planes) and 64 MiB for its tables and buffers.
    static func memoryCap(for limits: DecodingLimits) -> Int {
        let (planes, overflow) = max(limits.maxTotalBytes, 0).multipliedReportingOverflow(by: 4)
        let (cap, overflow2) = planes.addingReportingOverflow(64 << 20)
        return overflow || overflow2 ? Int.max : cap
    }

    /// The error for a decoder or runner libjxl could not make: the budget's refusal when it refused an allocation.
    private static func startFailure(
        _ budget: UnsafeMutablePointer<wi_jxl_budget>, _ message: String
    ) -> WebImageError {
        wi_jxl_budget_refused(budget) != 0 ? refusal(budget.pointee.cap) : WebImageError(.tooLarge, message)
    }

    /// The error for a refused allocation.
    private static func refusal(_ cap: Int) -> WebImageError {
        WebImageError(.tooLarge, "the JPEG XL decoder needs more than its \(cap)-byte memory budget")
    }

    /// Sets the decoder up and runs it to the basic information.
    private static func start(
        _ raw: OpaquePointer, bytes: UnsafeRawBufferPointer, events: [JxlDecoderStatus],
        runner: UnsafeMutableRawPointer?, budget: UnsafeMutablePointer<wi_jxl_budget>
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
        try advance(raw, to: JXL_DEC_BASIC_INFO, budget: budget)
    }

    deinit {
        JxlDecoderDestroy(raw)
        if let runner { JxlThreadParallelRunnerDestroy(runner) }
        free(budget)
    }

    /// The most bytes libjxl had allocated through the budget at once.
    var memoryPeak: Int { wi_jxl_budget_peak(budget) }

    /// The bytes of the image planes libjxl 0.7 allocates outside the budget for one frame: three colour planes
    /// (grey is decoded to three too) and one per extra channel, 4 bytes a sample; `nil` past `Int`.
    var planeBytes: Int? {
        let planes = 3 + Int(basic.num_extra_channels)
        let (pixels, overflow) = Int(basic.xsize).multipliedReportingOverflow(by: Int(basic.ysize))
        let (bytes, overflow2) = pixels.multipliedReportingOverflow(by: planes * 4)
        return overflow || overflow2 ? nil : bytes
    }

    /// Throws ``WebImageError/Code/tooLarge`` when the planes the header declares do not fit the budget.
    func checkPlanes() throws(WebImageError) {
        let cap = budget.pointee.cap
        guard let bytes = planeBytes, bytes <= cap else {
            throw WebImageError(
                .tooLarge,
                "\(basic.xsize)x\(basic.ysize) with \(basic.num_extra_channels) extra channels needs more than the "
                    + "JPEG XL decoder's \(cap)-byte memory budget")
        }
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
    /// `metadata` is read once the frames are (a file that does not decode reads no boxes).
    func decode(
        options: DecodingOptions, metadata: () -> JXLMetadata = { JXLMetadata() }
    ) throws(WebImageError) -> Image {
        let size = self.size
        try options.limits.checkFrame(width: size.width, height: size.height)
        try checkPlanes()
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
            if !animated, options.keepsHighBitDepth, basic.bits_per_sample > 8 {
                frames.append(try deepFrame(size: size, color: color, limits: options.limits))
                break
            }
            let pixels = try framePixels(size: size, format: &format, color: color)
            frames.append(ImageFrame(pixels: pixels, duration: animated ? Double(header.duration) * tick : 0))
            if options.firstFrameOnly { break }
        }
        guard !frames.isEmpty else { throw WebImageError(.truncatedData, "the JPEG XL file has no frame") }
        let orientation = options.appliesOrientation ? self.orientation : .up
        let metadata = metadata()
        return Image(
            frames: frames.map {
                ImageFrame(
                    pixels: $0.pixels.oriented(from: orientation),
                    deepPixels: $0.deepPixels?.oriented(from: orientation), duration: $0.duration)
            },
            loopCount: animated && frames.count > 1 ? Int(basic.animation.num_loops) : 0, format: .jxl,
            sourceOrientation: orientation, isOpaque: hasAlpha ? nil : true, colorProfile: color.keptProfile,
            exif: metadata.exif, xmp: metadata.xmp)
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
        try Self.advance(raw, to: event, budget: budget)
    }

    /// Processes input until `event`; any other event on the way is an error, as is the end of the file.
    static func advance(
        _ raw: OpaquePointer, to event: JxlDecoderStatus, budget: UnsafeMutablePointer<wi_jxl_budget>
    ) throws(WebImageError) {
        let status = JxlDecoderProcessInput(raw)
        guard status != event else { return }
        try check(status, budget: budget)
        throw WebImageError(.corruptData, "the JPEG XL file ends before its first frame does")
    }

    private func check(_ status: JxlDecoderStatus) throws(WebImageError) { try Self.check(status, budget: budget) }

    /// An event that was not asked for: libjxl out of step with this decoder, never to be waited out.
    private static let unexpected = WebImageError(.corruptData, "libjxl reported an event out of order")

    /// Throws for an error status: ``WebImageError/Code/tooLarge`` when the budget refused an allocation on the way.
    private static func check(
        _ status: JxlDecoderStatus, budget: UnsafeMutablePointer<wi_jxl_budget>
    ) throws(WebImageError) {
        switch status {
        case JXL_DEC_ERROR:
            if wi_jxl_budget_refused(budget) != 0 { throw refusal(budget.pointee.cap) }
            throw WebImageError(.corruptData, "invalid JPEG XL data")
        case JXL_DEC_NEED_MORE_INPUT: throw WebImageError(.truncatedData, "the JPEG XL file is cut short")
        default: return
        }
    }
}
