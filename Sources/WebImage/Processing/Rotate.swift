import Foundation

/// Rotates every frame clockwise by an angle in degrees.
///
/// Multiples of 90 degrees move pixels exactly. Other angles enlarge the canvas to hold the whole rotated picture,
/// sample it bilinearly (premultiplied) and fill the corners with `background` (transparent by default).
public struct Rotate: PixelTransforming {
    /// The clockwise angle in degrees.
    public let degrees: Double
    /// The colour of the uncovered corners for angles that are not multiples of 90.
    public let background: RGBA
    /// The largest result allowed (an angle that is not a multiple of 90 enlarges the canvas).
    public let limits: TransformLimits

    /// Rotates clockwise by `degrees`.
    public init(degrees: Double, background: RGBA = .clear, limits: TransformLimits = .default) {
        self.degrees = degrees
        self.background = background
        self.limits = limits
    }

    public var key: String {
        let quarter = degrees.truncatingRemainder(dividingBy: 90) == 0
        return "rotate(\(degrees.keyDescription)\(quarter ? "" : "," + background.keyDescription))"
    }

    public func transform(_ pixels: PixelBuffer) throws(WebImageError) -> PixelBuffer {
        guard degrees.isFinite else { throw WebImageError(.invalidArgument, "rotation angle must be a number") }
        let normalized = (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        switch normalized {
        case 0: return pixels
        case 90: return pixels.oriented(from: .right)
        case 180: return pixels.oriented(from: .down)
        case 270: return pixels.oriented(from: .left)
        default: return try rotate(pixels, radians: normalized * .pi / 180)
        }
    }

    private func rotate(_ pixels: PixelBuffer, radians: Double) throws(WebImageError) -> PixelBuffer {
        let (c, s) = (cos(radians), sin(radians))
        let (w, h) = (Double(pixels.width), Double(pixels.height))
        let output = try limits.size(
            width: (abs(w * c) + abs(h * s)).rounded(.up), height: (abs(w * s) + abs(h * c)).rounded(.up),
            for: "rotate")
        let (outWidth, outHeight) = (output.width, output.height)
        let fill =
            SIMD4<Double>(
                Double(background.red), Double(background.green), Double(background.blue), 255
            ) * (Double(background.alpha) / 255)
        return pixels.bytes.withUnsafeBufferPointer { source in
            func premultiplied(_ x: Int, _ y: Int) -> SIMD4<Double> {
                guard x >= 0, y >= 0, x < pixels.width, y < pixels.height else { return fill }
                let index = (y * pixels.width + x) * 4
                let alpha = Double(source[index + 3])
                return SIMD4(
                    Double(source[index]) * alpha / 255, Double(source[index + 1]) * alpha / 255,
                    Double(source[index + 2]) * alpha / 255, alpha)
            }
            return PixelBuffer(width: outWidth, height: outHeight) { output in
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        // Map the output pixel centre back into the source (inverse rotation about the centres).
                        let dx = Double(x) + 0.5 - Double(outWidth) / 2
                        let dy = Double(y) + 0.5 - Double(outHeight) / 2
                        let sx = c * dx + s * dy + w / 2 - 0.5
                        let sy = -s * dx + c * dy + h / 2 - 0.5
                        let (x0, y0) = (Int(sx.rounded(.down)), Int(sy.rounded(.down)))
                        let (fx, fy) = (sx - Double(x0), sy - Double(y0))
                        let top = premultiplied(x0, y0) * (1 - fx) + premultiplied(x0 + 1, y0) * fx
                        let bottom = premultiplied(x0, y0 + 1) * (1 - fx) + premultiplied(x0 + 1, y0 + 1) * fx
                        let pixel = top * (1 - fy) + bottom * fy
                        let index = (y * outWidth + x) * 4
                        let alpha = pixel[3]
                        for channel in 0..<3 {
                            output[index + channel] =
                                alpha > 0 ? UInt8(min(pixel[channel] * 255 / alpha, 255).rounded()) : 0
                        }
                        output[index + 3] = UInt8(min(alpha, 255).rounded())
                    }
                }
            }
        }
    }
}
