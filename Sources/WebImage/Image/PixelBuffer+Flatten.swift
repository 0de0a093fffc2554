extension PixelBuffer {
    /// The pixels composited over an opaque `background`: every pixel comes out with alpha 255.
    public func flattened(over background: RGBA) -> PixelBuffer {
        bytes.withUnsafeBufferPointer { source in
            PixelBuffer(width: width, height: height) { output in
                let back = [Int(background.red), Int(background.green), Int(background.blue)]
                var index = 0
                while index < source.count {
                    let alpha = Int(source[index + 3])
                    for channel in 0..<3 {
                        let blended = Int(source[index + channel]) * alpha + back[channel] * (255 - alpha)
                        output[index + channel] = UInt8((blended + 127) / 255)
                    }
                    output[index + 3] = 255
                    index += 4
                }
            }
        }
    }
}
