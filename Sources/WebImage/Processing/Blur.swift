import Foundation

/// A Gaussian blur of every frame, computed as a separable convolution on premultiplied pixels.
///
/// The radius is at most ``maximumRadius``: the kernel spans six radii, so its cost grows with the radius, and a
/// larger one is refused with ``WebImageError/Code/invalidArgument`` rather than run for minutes.
public struct Blur: PixelTransforming {
    /// The largest standard deviation accepted, in pixels.
    public static let maximumRadius: Double = 100

    /// The standard deviation of the Gaussian, in pixels.
    public let radius: Double

    /// Blurs with a Gaussian of standard deviation `radius` pixels (0 leaves the image as it is).
    public init(radius: Double) { self.radius = radius }

    public var key: String { "blur(\(radius.keyDescription))" }

    public func transform(_ pixels: PixelBuffer) throws(WebImageError) -> PixelBuffer {
        guard radius.isFinite, radius >= 0, radius <= Self.maximumRadius else {
            throw WebImageError(
                .invalidArgument,
                "blur radius \(radius) must be a number from 0 to \(Self.maximumRadius.keyDescription)")
        }
        // A radius so small that its variance underflows blurs nothing (and would divide by zero).
        let variance = 2 * radius * radius
        guard variance.isNormal else { return pixels }
        let half = Int((radius * 3).rounded(.up))
        let kernel = (-half...half).map { exp(-Double($0 * $0) / variance) }
        return SeparableConvolution(
            horizontal: ResamplingWeights(size: pixels.width, kernel: kernel),
            vertical: ResamplingWeights(size: pixels.height, kernel: kernel)
        ).apply(to: pixels, opaque: pixels.isOpaque)
    }
}
