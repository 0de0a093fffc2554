/// Places every frame on a canvas of ``canvasSize`` filled with ``background``, its top-left corner at (``x``,
/// ``y``): imgproxy's `extend`, `extend_aspect_ratio` and `padding` canvases.
///
/// The offset is clamped so the frame stays on the canvas; a frame larger than the canvas is placed at its corner
/// and cut at the canvas's edges.
public struct Embed: PixelTransforming {
    /// The size of the result.
    public let canvasSize: PixelSize
    /// Where the frame's left edge sits on the canvas.
    public let x: Int
    /// Where the frame's top edge sits on the canvas.
    public let y: Int
    /// The colour of the canvas around the frame.
    public let background: RGBA

    /// Places frames at (`x`, `y`) on a `canvasSize` canvas of `background`.
    public init(canvasSize: PixelSize, x: Int, y: Int, background: RGBA = .clear) {
        self.canvasSize = canvasSize
        self.x = x
        self.y = y
        self.background = background
    }

    public var key: String {
        "embed(\(canvasSize.width)x\(canvasSize.height)@\(x),\(y),\(background.keyDescription))"
    }

    public func transform(_ pixels: PixelBuffer) throws(WebImageError) -> PixelBuffer {
        let (width, height) = (canvasSize.width, canvasSize.height)
        guard width > 0, height > 0, width.multipliedReportingOverflow(by: height).overflow == false else {
            throw WebImageError(.invalidArgument, "canvas \(width)x\(height) is not a valid size")
        }
        let left = max(0, min(x, width - pixels.width))
        let top = max(0, min(y, height - pixels.height))
        let fill = background
        return pixels.bytes.withUnsafeBufferPointer { source in
            PixelBuffer(width: width, height: height) { output in
                for index in stride(from: 0, to: output.count, by: 4) {
                    output[index] = fill.red
                    output[index + 1] = fill.green
                    output[index + 2] = fill.blue
                    output[index + 3] = fill.alpha
                }
                let rowBytes = min(pixels.width, width - left) * 4
                for row in 0..<min(pixels.height, height - top) {
                    let to = ((top + row) * width + left) * 4
                    let from = row * pixels.width * 4
                    for offset in 0..<rowBytes { output[to + offset] = source[from + offset] }
                }
            }
        }
    }
}
