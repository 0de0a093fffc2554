import Foundation

/// Rounds the corners of every frame with an anti-aliased edge, optionally drawing a border along the edge.
public struct RoundCorners: PixelTransforming {
    /// The corner radius in pixels; at most half the shorter side is used.
    public let radius: Double
    /// The border width in pixels; 0 for none.
    public let borderWidth: Double
    /// The border colour.
    public let borderColor: RGBA

    /// Rounds corners by `radius` pixels, with a `borderWidth`-pixel border of `borderColor`.
    public init(radius: Double, borderWidth: Double = 0, borderColor: RGBA = .white) {
        self.radius = radius
        self.borderWidth = borderWidth
        self.borderColor = borderColor
    }

    public var key: String {
        let border = borderWidth > 0 ? ",\(borderWidth.keyDescription),\(borderColor.keyDescription)" : ""
        return "round(\(radius.keyDescription)\(border))"
    }

    public func transform(_ pixels: PixelBuffer) throws(WebImageError) -> PixelBuffer {
        guard radius.isFinite, radius >= 0, borderWidth.isFinite, borderWidth >= 0 else {
            throw WebImageError(.invalidArgument, "corner radius and border width must be non-negative numbers")
        }
        let (width, height) = (Double(pixels.width), Double(pixels.height))
        let r = min(radius, width / 2, height / 2)
        let border = [Double(borderColor.red), Double(borderColor.green), Double(borderColor.blue)]
        let borderAlpha = Double(borderColor.alpha) / 255
        return pixels.bytes.withUnsafeBufferPointer { source in
            PixelBuffer(width: pixels.width, height: pixels.height) { output in
                for y in 0..<pixels.height {
                    for x in 0..<pixels.width {
                        let index = (y * pixels.width + x) * 4
                        // Signed distance from the pixel centre to the rounded rectangle's edge (negative inside).
                        let qx = abs(Double(x) + 0.5 - width / 2) - (width / 2 - r)
                        let qy = abs(Double(y) + 0.5 - height / 2) - (height / 2 - r)
                        let distance = hypot(max(qx, 0), max(qy, 0)) + min(max(qx, qy), 0) - r
                        let coverage = min(max(0.5 - distance, 0), 1)
                        var colour = (0..<3).map { Double(source[index + $0]) }
                        var alpha = Double(source[index + 3]) / 255
                        if borderWidth > 0 {
                            let amount = min(max(0.5 + distance + borderWidth, 0), 1) * borderAlpha
                            let outAlpha = amount + alpha * (1 - amount)
                            if outAlpha > 0 {
                                colour = (0..<3).map {
                                    (border[$0] * amount + colour[$0] * alpha * (1 - amount)) / outAlpha
                                }
                            }
                            alpha = outAlpha
                        }
                        for channel in 0..<3 { output[index + channel] = UInt8(colour[channel].rounded()) }
                        output[index + 3] = UInt8((alpha * coverage * 255).rounded())
                    }
                }
            }
        }
    }
}
