import CGIF
import Foundation

/// Walks a GIF's records, decoding each frame onto an ``AnimationCanvas``.
struct GIFFrameReader {
    let file: UnsafeMutablePointer<GifFileType>
    let options: DecodingOptions

    private var canvas: AnimationCanvas?
    private var frames: [ImageFrame] = []
    private var loopCount = 1
    /// The pending Graphics Control Extension: disposal method, delay (centiseconds), transparent index.
    private var disposal = 0
    private var delay = 0
    private var transparentIndex: Int?
    /// The `ICCRGBG1012` application extension's profile, applied to every palette (or kept, as asked).
    private var color: ColorHandling?

    init(file: UnsafeMutablePointer<GifFileType>, options: DecodingOptions) {
        self.file = file
        self.options = options
    }

    mutating func read() throws(WebImageError) -> Image {
        let (width, height) = (Int(file.pointee.SWidth), Int(file.pointee.SHeight))
        try options.limits.checkFrame(width: width, height: height)
        canvas = AnimationCanvas(width: width, height: height)
        loop: while true {
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(file, &record) == GIF_OK else {
                if frames.isEmpty { throw GIFFile.error(file.pointee.Error, "cannot read the GIF") }
                break
            }
            switch record {
            case IMAGE_DESC_RECORD_TYPE:
                do throws(WebImageError) {
                    try readFrame()
                } catch  where error.code == .truncatedData && !frames.isEmpty {
                    break loop
                }
                if options.firstFrameOnly { break loop }
            case EXTENSION_RECORD_TYPE:
                try readExtension()
            case TERMINATE_RECORD_TYPE:
                break loop
            default:
                throw WebImageError(.corruptData, "unexpected GIF record")
            }
        }
        guard !frames.isEmpty else { throw WebImageError(.corruptData, "the GIF has no image") }
        return Image(
            frames: frames, loopCount: frames.count > 1 ? loopCount : 0, format: .gif,
            colorProfile: color?.keptProfile)
    }

    private mutating func readFrame() throws(WebImageError) {
        guard DGifGetImageDesc(file) == GIF_OK else {
            throw GIFFile.error(file.pointee.Error, "cannot read a GIF frame descriptor")
        }
        let descriptor = file.pointee.Image
        let (width, height) = (Int(descriptor.Width), Int(descriptor.Height))
        try options.limits.checkAnimation(
            width: canvas!.width, height: canvas!.height, frames: frames.count + 1)
        try options.limits.checkFrame(width: width, height: height)
        guard let colorMap = descriptor.ColorMap ?? file.pointee.SColorMap else {
            throw WebImageError(.corruptData, "a GIF frame has no colour table")
        }
        var palette = Self.palette(colorMap.pointee)
        // A profile describes the palette's colours: converting the 256 entries converts every pixel.
        if let color { palette.withUnsafeMutableBytes { color.apply($0.bindMemory(to: UInt8.self)) } }
        let saved = disposal == 3 ? canvas!.snapshot() : nil
        var line = [GifPixelType](repeating: 0, count: width)
        let (left, top) = (Int(descriptor.Left), Int(descriptor.Top))
        for row in Self.rowOrder(height: height, interlaced: descriptor.Interlace) {
            guard DGifGetLine(file, &line, Int32(width)) == GIF_OK else {
                throw GIFFile.error(file.pointee.Error, "GIF frame data is cut short")
            }
            line.withUnsafeBufferPointer { indices in
                palette.withUnsafeBufferPointer { colors in
                    canvas!.drawIndexedRow(
                        indices, palette: colors, transparent: transparentIndex, x: left, y: top + row)
                }
            }
        }
        frames.append(ImageFrame(pixels: canvas!.snapshot(), duration: delay <= 1 ? 0.1 : Double(delay) / 100))
        if disposal == 2, let region = canvas!.clip(x: left, y: top, width: width, height: height) {
            canvas!.clear(region)
        } else if let saved {
            canvas!.restore(saved)
        }
        (disposal, delay, transparentIndex) = (0, 0, nil)
    }

    private mutating func readExtension() throws(WebImageError) {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetExtension(file, &code, &block) == GIF_OK else {
            throw GIFFile.error(file.pointee.Error, "cannot read a GIF extension")
        }
        var isNetscape = false
        var profile: [UInt8]?
        if let first = block {
            if code == GRAPHICS_EXT_FUNC_CODE, first[0] >= 4 {
                disposal = Int(first[1] >> 2) & 7
                delay = Int(first[2]) | Int(first[3]) << 8
                transparentIndex = first[1] & 1 != 0 ? Int(first[4]) : nil
            } else if code == APPLICATION_EXT_FUNC_CODE, first[0] == 11 {
                let name = String(decoding: UnsafeBufferPointer(start: first + 1, count: 11), as: UTF8.self)
                isNetscape = name == "NETSCAPE2.0" || name == "ANIMEXTS1.0"
                if name == "ICCRGBG1012", color == nil { profile = [] }
            }
        }
        while block != nil {
            guard DGifGetExtensionNext(file, &block) == GIF_OK else {
                throw GIFFile.error(file.pointee.Error, "cannot read a GIF extension")
            }
            if isNetscape, let next = block, next[0] >= 3, next[1] == 1 {
                loopCount = Int(next[2]) | Int(next[3]) << 8
            }
            if let next = block, let count = profile?.count, count + Int(next[0]) <= ICCProfileReader.maxSize {
                profile?.append(contentsOf: UnsafeBufferPointer(start: next + 1, count: Int(next[0])))
            }
        }
        if let profile, !profile.isEmpty { color = ColorHandling(profile: Data(profile), options: options) }
    }

    /// All 256 palette entries as RGBA packed in memory order; indices past the table are opaque black.
    private static func palette(_ map: ColorMapObject) -> [UInt32] {
        var palette = [UInt32](repeating: UInt32(0xFF00_0000).littleEndian, count: 256)
        for index in 0..<min(Int(map.ColorCount), 256) {
            let color = map.Colors[index]
            let packed = UInt32(color.Red) | UInt32(color.Green) << 8 | UInt32(color.Blue) << 16 | 0xFF00_0000
            palette[index] = packed.littleEndian
        }
        return palette
    }

    /// The order rows arrive in: top to bottom, or the four passes of GIF interlacing.
    private static func rowOrder(height: Int, interlaced: Bool) -> [Int] {
        guard interlaced else { return Array(0..<height) }
        return [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in
            Array(stride(from: start, to: height, by: step))
        }
    }
}
