import WebImage

/// The pictures the demo's samples are encoded from, drawn in memory: a colour gradient with a disc on it.
enum DemoPixels {
    /// A `width`×`height` picture: red grows to the right, green downwards, blue is their opposite, and a light disc
    /// sits on the top-left to bottom-right diagonal at `phase` (0 at the top left, 1 at the bottom right). With
    /// `alpha`, opacity falls from the centre to transparent corners.
    static func picture(width: Int, height: Int, phase: Double = 0.3, alpha: Bool = false) -> PixelBuffer {
        let radius = max(min(width, height) / 5, 1)
        let discX = Int(Double(width - 1) * phase)
        let discY = Int(Double(height - 1) * phase)
        let (centreX, centreY) = (width / 2, height / 2)
        let farthest = centreX * centreX + centreY * centreY
        return PixelBuffer(width: width, height: height) { buffer in
            var index = 0
            for y in 0..<height {
                let green = y * 255 / max(height - 1, 1)
                for x in 0..<width {
                    let red = x * 255 / max(width - 1, 1)
                    let (dx, dy) = (x - discX, y - discY)
                    let inDisc = dx * dx + dy * dy <= radius * radius
                    buffer[index] = UInt8(inDisc ? 255 - red / 4 : red)
                    buffer[index + 1] = UInt8(inDisc ? 240 : green)
                    buffer[index + 2] = UInt8(inDisc ? 200 : 255 - (red + green) / 2)
                    if alpha {
                        let (cx, cy) = (x - centreX, y - centreY)
                        buffer[index + 3] = UInt8(255 - (cx * cx + cy * cy) * 255 / max(farthest, 1))
                    } else {
                        buffer[index + 3] = 255
                    }
                    index += 4
                }
            }
        }
    }

    /// A large picture made fast enough for a debug build: ``picture(width:height:phase:alpha:)`` drawn 64 rows high,
    /// each row repeated down its band of the full height.
    static func large(width: Int, height: Int) -> PixelBuffer {
        let bands = min(64, height)
        let source = picture(width: width, height: bands)
        return PixelBuffer(width: width, height: height) { buffer in
            source.bytes.withUnsafeBufferPointer { rows in
                for y in 0..<height {
                    let from = (y * bands / height) * source.bytesPerRow
                    let to = y * source.bytesPerRow
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[to..<(to + source.bytesPerRow)])
                        .update(fromContentsOf: rows[from..<(from + source.bytesPerRow)])
                }
            }
        }
    }

    /// An animation looping forever: `frames` pictures, 0.1 s each, the disc moving along the diagonal.
    static func animation(width: Int, height: Int, frames: Int = 8, alpha: Bool = false) -> Image {
        let pictures = (0..<frames).map { frame in
            ImageFrame(
                pixels: picture(width: width, height: height, phase: Double(frame) / Double(frames), alpha: alpha),
                duration: 0.1)
        }
        return Image(frames: pictures, loopCount: 0)
    }
}
