import Foundation

/// A Gaussian blur of every frame, computed as a separable convolution on premultiplied pixels.
public struct Blur: PixelTransforming {
    /// The standard deviation of the Gaussian, in pixels.
    public let radius: Double

    /// Blurs with a Gaussian of standard deviation `radius` pixels (0 leaves the image as it is).
    public init(radius: Double) { self.radius = radius }

    public var key: String { "blur(\(radius.keyDescription))" }

    public func transform(_ pixels: PixelBuffer) throws(WebImageError) -> PixelBuffer {
        guard radius.isFinite, radius >= 0 else {
            throw WebImageError(.invalidArgument, "blur radius \(radius) must be a non-negative number")
        }
        guard radius > 0 else { return pixels }
        let half = Int((radius * 3).rounded(.up))
        let kernel = (-half...half).map { exp(-Double($0 * $0) / (2 * radius * radius)) }
        return SeparableConvolution(
            horizontal: ResamplingWeights(size: pixels.width, kernel: kernel),
            vertical: ResamplingWeights(size: pixels.height, kernel: kernel)
        ).apply(to: pixels, opaque: pixels.isOpaque)
    }
}
