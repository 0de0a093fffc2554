import CJXL
import Foundation

/// Encodes stills and animations with libjxl: 8-bit RGB or RGBA (alpha only when some pixel is transparent), or
/// 16-bit for a still with 16-bit pixels (``ImageFrame/deepPixels``), sRGB
/// unless a profile is embedded, lossy (VarDCT in XYB, at the distance ``JXLCoder/distance(forQuality:)`` gives)
/// or lossless (modular), at the effort ``JXLCoder/effort(forSpeed:)`` gives.
enum JXLEncoder {
    static func encode(_ image: Image, options: EncodingOptions) throws(WebImageError) -> Data {
        let color = EncodingColor(image, options: options)
        let size = color.frames[0].pixels.size
        guard size.width <= 1 << 30, size.height <= 1 << 30 else {
            throw WebImageError(.encodingFailed, "\(size.width)x\(size.height) is too large for JPEG XL")
        }
        guard let encoder = JxlEncoderCreate(nil) else {
            throw WebImageError(.encodingFailed, "libjxl could not start")
        }
        defer { JxlEncoderDestroy(encoder) }
        if color.exif != nil || color.xmp != nil { try check(JxlEncoderUseBoxes(encoder), encoder) }
        let threads = max(ProcessInfo.processInfo.activeProcessorCount, 1)
        let runner = threads > 1 ? JxlThreadParallelRunnerCreate(nil, threads) : nil
        defer { if let runner { JxlThreadParallelRunnerDestroy(runner) } }
        if let runner { try check(JxlEncoderSetParallelRunner(encoder, JxlThreadParallelRunner, runner), encoder) }
        let lossless = options.lossless || options.quality >= 100
        let animated = color.frames.count > 1
        let deep = animated ? nil : color.frames[0].deepPixels
        let alpha = deep.map { !$0.isOpaque } ?? !image.isOpaque
        var basic = JxlBasicInfo()
        JxlEncoderInitBasicInfo(&basic)
        basic.xsize = UInt32(size.width)
        basic.ysize = UInt32(size.height)
        basic.bits_per_sample = deep == nil ? 8 : 16
        basic.num_color_channels = 3
        basic.num_extra_channels = alpha ? 1 : 0
        basic.alpha_bits = alpha ? basic.bits_per_sample : 0
        basic.uses_original_profile = lossless ? Int32(JXL_TRUE) : Int32(JXL_FALSE)
        if animated {
            basic.have_animation = Int32(JXL_TRUE)
            basic.animation.tps_numerator = 1000
            basic.animation.tps_denominator = 1
            basic.animation.num_loops = UInt32(clamping: max(image.loopCount, 0))
        }
        try check(JxlEncoderSetBasicInfo(encoder, &basic), encoder)
        if let profile = color.profile {
            let status = profile.withUnsafeBytes {
                JxlEncoderSetICCProfile(encoder, $0.bindMemory(to: UInt8.self).baseAddress, $0.count)
            }
            try check(status, encoder)
        } else {
            var srgb = JxlColorEncoding()
            JxlColorEncodingSetToSRGB(&srgb, Int32(JXL_FALSE))
            try check(JxlEncoderSetColorEncoding(encoder, &srgb), encoder)
        }
        guard let settings = JxlEncoderFrameSettingsCreate(encoder, nil) else {
            throw WebImageError(.encodingFailed, "libjxl could not make frame settings")
        }
        let effort = Int64(JXLCoder.effort(forSpeed: options.speed ?? JXLCoder.defaultSpeed))
        try check(JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, effort), encoder)
        if lossless {
            try check(JxlEncoderSetFrameLossless(settings, Int32(JXL_TRUE)), encoder)
        } else {
            try check(JxlEncoderSetFrameDistance(settings, JXLCoder.distance(forQuality: options.quality)), encoder)
        }
        var format = JxlPixelFormat(
            num_channels: 4, data_type: deep == nil ? JXL_TYPE_UINT8 : JXL_TYPE_UINT16, endianness: JXL_NATIVE_ENDIAN,
            align: 0)
        for frame in color.frames {
            if animated {
                var header = JxlFrameHeader()
                JxlEncoderInitFrameHeader(&header)
                header.duration = milliseconds(frame.duration)
                try check(JxlEncoderSetFrameHeader(settings, &header), encoder)
            }
            format.num_channels = alpha ? 4 : 3
            let status: JxlEncoderStatus
            if let deep {
                let samples = alpha ? deep.samples : rgb(deep)
                status = samples.withUnsafeBytes {
                    JxlEncoderAddImageFrame(settings, &format, $0.baseAddress, $0.count)
                }
            } else {
                let pixels = alpha ? frame.pixels.bytes : rgb(frame.pixels)
                status = pixels.withUnsafeBytes { JxlEncoderAddImageFrame(settings, &format, $0.baseAddress, $0.count) }
            }
            try check(status, encoder)
        }
        try addMetadataBoxes(color, encoder)
        JxlEncoderCloseInput(encoder)
        return try output(encoder)
    }

    /// The EXIF block in an `Exif` box (after a 4-byte offset of 0: the TIFF header comes first) and the XMP packet in
    /// an `xml ` box, both uncompressed, after the codestream.
    private static func addMetadataBoxes(_ color: EncodingColor, _ encoder: OpaquePointer) throws(WebImageError) {
        let boxes = [("Exif", color.exif.map { Data(count: 4) + $0 }), ("xml ", color.xmp)]
        for case (let type, let contents?) in boxes {
            let status = contents.withUnsafeBytes {
                JxlEncoderAddBox(encoder, type, $0.bindMemory(to: UInt8.self).baseAddress, $0.count, Int32(JXL_FALSE))
            }
            try check(status, encoder)
        }
    }

    /// Runs the encoder to the end, growing the output as it asks.
    private static func output(_ encoder: OpaquePointer) throws(WebImageError) -> Data {
        var output = [UInt8](repeating: 0, count: 64 << 10)
        var written = 0
        while true {
            var status = JXL_ENC_SUCCESS
            output.withUnsafeMutableBufferPointer { buffer in
                var next = buffer.baseAddress.map { $0 + written }
                var available = buffer.count - written
                status = JxlEncoderProcessOutput(encoder, &next, &available)
                written = buffer.count - available
            }
            if status == JXL_ENC_NEED_MORE_OUTPUT {
                output.append(contentsOf: repeatElement(0, count: output.count))
                continue
            }
            try check(status, encoder)
            return Data(output[0..<written])
        }
    }

    /// The RGB samples of RGBA pixels, for opaque images.
    private static func rgb(_ pixels: PixelBuffer) -> [UInt8] {
        let count = pixels.width * pixels.height
        return [UInt8](unsafeUninitializedCapacity: count * 3) { output, initialized in
            pixels.bytes.withUnsafeBufferPointer { input in
                for pixel in 0..<count {
                    output[pixel * 3] = input[pixel * 4]
                    output[pixel * 3 + 1] = input[pixel * 4 + 1]
                    output[pixel * 3 + 2] = input[pixel * 4 + 2]
                }
            }
            initialized = count * 3
        }
    }

    /// The RGB samples of 16-bit RGBA pixels, for opaque images.
    private static func rgb(_ pixels: PixelBuffer16) -> [UInt16] {
        let count = pixels.width * pixels.height
        return [UInt16](unsafeUninitializedCapacity: count * 3) { output, initialized in
            pixels.samples.withUnsafeBufferPointer { input in
                for pixel in 0..<count {
                    output[pixel * 3] = input[pixel * 4]
                    output[pixel * 3 + 1] = input[pixel * 4 + 1]
                    output[pixel * 3 + 2] = input[pixel * 4 + 2]
                }
            }
            initialized = count * 3
        }
    }

    /// A frame's duration in milliseconds (the animation's tick), at least 1.
    private static func milliseconds(_ duration: Double) -> UInt32 {
        guard duration.isFinite, duration > 0 else { return 1 }
        return UInt32(min(max((duration * 1000).rounded(), 1), 86_400_000))
    }

    private static func check(_ status: JxlEncoderStatus, _ encoder: OpaquePointer) throws(WebImageError) {
        guard status != JXL_ENC_SUCCESS else { return }
        let code = JxlEncoderGetError(encoder).rawValue
        throw WebImageError(.encodingFailed, "JPEG XL encoding failed (libjxl error \(code))")
    }
}
