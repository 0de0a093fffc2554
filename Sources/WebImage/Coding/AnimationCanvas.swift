/// The canvas an animation is composited on: frames are drawn into sub-rectangles, then disposed of.
///
/// Shared by the GIF and APNG decoders. Starts fully transparent.
struct AnimationCanvas {
    /// A sub-rectangle of the canvas, already clipped to it.
    struct Region {
        var x, y, width, height: Int
    }

    let width: Int
    let height: Int
    private(set) var pixels: [UInt8]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// `region` clipped to the canvas, or `nil` when nothing of it is on the canvas.
    func clip(x: Int, y: Int, width: Int, height: Int) -> Region? {
        let (left, top) = (max(x, 0), max(y, 0))
        let (right, bottom) = (min(x + width, self.width), min(y + height, self.height))
        guard right > left, bottom > top else { return nil }
        return Region(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Draws `source` (RGBA, `sourceWidth` pixels a row) with its top-left at (`x`, `y`).
    ///
    /// With `blend`, source pixels are composited over the canvas (alpha 0 leaves it untouched); without, they
    /// replace it. Parts outside the canvas are dropped.
    mutating func draw(_ source: UnsafeBufferPointer<UInt8>, sourceWidth: Int, x: Int, y: Int, blend: Bool) {
        let sourceHeight = source.count / (sourceWidth * 4)
        guard let region = clip(x: x, y: y, width: sourceWidth, height: sourceHeight) else { return }
        let canvasWidth = width
        pixels.withUnsafeMutableBufferPointer { canvas in
            for row in 0..<region.height {
                let sourceRow = ((region.y - y + row) * sourceWidth + (region.x - x)) * 4
                let canvasRow = ((region.y + row) * canvasWidth + region.x) * 4
                for column in 0..<region.width {
                    let s = sourceRow + column * 4
                    let d = canvasRow + column * 4
                    let alpha = Int(source[s + 3])
                    if !blend || alpha == 255 || canvas[d + 3] == 0 {
                        if blend && alpha == 0 { continue }
                        for channel in 0..<4 { canvas[d + channel] = source[s + channel] }
                    } else if alpha > 0 {
                        Self.composite(source, s, over: canvas, d, alpha: alpha)
                    }
                }
            }
        }
    }

    /// Draws one row of palette indices (a GIF frame's row) at canvas row `y`, from column `x` on: each index is
    /// looked up in `palette` (RGBA packed in memory order), and `transparent` leaves the canvas pixel as it is.
    /// Parts outside the canvas are dropped.
    mutating func drawIndexedRow(
        _ indices: UnsafeBufferPointer<UInt8>, palette: UnsafeBufferPointer<UInt32>, transparent: Int?, x: Int, y: Int
    ) {
        guard y >= 0, y < height else { return }
        let first = max(0, -x)
        let last = min(indices.count, width - x)
        guard first < last else { return }
        let skip = transparent ?? -1
        let rowStart = (y * width + x) * 4
        pixels.withUnsafeMutableBytes { canvas in
            for column in first..<last {
                let index = Int(indices[column])
                if index == skip { continue }
                canvas.storeBytes(of: palette[index], toByteOffset: rowStart + column * 4, as: UInt32.self)
            }
        }
    }

    /// Makes `region` fully transparent.
    mutating func clear(_ region: Region) {
        let canvasWidth = width
        pixels.withUnsafeMutableBufferPointer { canvas in
            for row in region.y..<(region.y + region.height) {
                let start = (row * canvasWidth + region.x) * 4
                canvas[start..<(start + region.width * 4)].update(repeating: 0)
            }
        }
    }

    /// The canvas as it is now, as a frame's pixels.
    func snapshot() -> PixelBuffer { PixelBuffer(width: width, height: height, bytes: pixels) }

    /// Puts back pixels taken earlier with ``snapshot()``.
    mutating func restore(_ saved: PixelBuffer) { pixels = saved.bytes }

    private static func composite(
        _ source: UnsafeBufferPointer<UInt8>, _ s: Int, over canvas: UnsafeMutableBufferPointer<UInt8>, _ d: Int,
        alpha: Int
    ) {
        let destinationAlpha = Int(canvas[d + 3]) * (255 - alpha) / 255
        let outAlpha = alpha + destinationAlpha
        for channel in 0..<3 {
            let mixed = Int(source[s + channel]) * alpha + Int(canvas[d + channel]) * destinationAlpha
            canvas[d + channel] = UInt8((mixed + outAlpha / 2) / outAlpha)
        }
        canvas[d + 3] = UInt8(outAlpha)
    }
}
