import Foundation

/// A reconstruction filter for resampling: how much each source pixel weighs at a distance from the sample point.
///
/// A struct with static members, so filters can be added; ``lanczos3`` is the default.
public struct ResamplingFilter: Sendable, Hashable, CustomStringConvertible {
    /// The filter's name, used in transformer keys.
    public let name: String
    /// How far from the centre (in source pixels, before widening for downscaling) the filter is non-zero.
    public let support: Double
    private let kind: Kind

    private enum Kind: Hashable {
        case box, triangle, cubic(b: Double, c: Double), lanczos(Double)
    }

    private init(_ name: String, support: Double, kind: Kind) {
        self.name = name
        self.support = support
        self.kind = kind
    }

    public var description: String { name }

    /// Nearest-neighbour averaging: every source pixel under the output pixel counts equally.
    public static let box = ResamplingFilter("box", support: 0.5, kind: .box)
    /// Linear interpolation (a triangle filter).
    public static let bilinear = ResamplingFilter("bilinear", support: 1, kind: .triangle)
    /// Catmull-Rom cubic (B = 0, C = 0.5): sharp, as Pillow's `BICUBIC`.
    public static let catmullRom = ResamplingFilter("catmullrom", support: 2, kind: .cubic(b: 0, c: 0.5))
    /// Mitchell-Netravali cubic (B = C = 1/3): softer, fewer ringing artefacts.
    public static let mitchell = ResamplingFilter("mitchell", support: 2, kind: .cubic(b: 1.0 / 3, c: 1.0 / 3))
    /// Lanczos with three lobes: the sharpest, the default (as libvips' and Pillow's `LANCZOS`).
    public static let lanczos3 = ResamplingFilter("lanczos3", support: 3, kind: .lanczos(3))

    /// The filter's weight at distance `x` from the sample point.
    public func weight(at x: Double) -> Double {
        let x = abs(x)
        switch kind {
        case .box:
            return x < 0.5 ? 1 : 0
        case .triangle:
            return x < 1 ? 1 - x : 0
        case .cubic(let b, let c):
            if x < 1 { return ((12 - 9 * b - 6 * c) * x * x * x + (-18 + 12 * b + 6 * c) * x * x + (6 - 2 * b)) / 6 }
            if x < 2 {
                return ((-b - 6 * c) * x * x * x + (6 * b + 30 * c) * x * x + (-12 * b - 48 * c) * x + (8 * b + 24 * c))
                    / 6
            }
            return 0
        case .lanczos(let lobes):
            guard x < lobes else { return 0 }
            return Self.sinc(x) * Self.sinc(x / lobes)
        }
    }

    private static func sinc(_ x: Double) -> Double {
        guard x != 0 else { return 1 }
        let angle = x * Double.pi
        return sin(angle) / angle
    }
}
