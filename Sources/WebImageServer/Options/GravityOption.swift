/// Where a crop or an extended canvas is anchored (imgproxy's `gravity`, `crop` gravity and `extend` gravity).
public struct GravityOption: Sendable, Hashable, CustomStringConvertible {
    /// The anchor kind.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case center = "ce"
        case north = "no"
        case east = "ea"
        case south = "so"
        case west = "we"
        case northWest = "nowe"
        case northEast = "noea"
        case southWest = "sowe"
        case southEast = "soea"
        /// Content-aware: the crop with the most detail.
        case smart = "sm"
        /// A focus point given as fractions of the width and height.
        case focusPoint = "fp"
    }

    /// The anchor kind.
    public var kind: Kind
    /// The horizontal offset: pixels when its magnitude is at least 1, a fraction of the width below that; for a
    /// focus point, the fraction of the width (0 to 1).
    public var x: Double
    /// The vertical offset, as ``x``.
    public var y: Double

    /// Creates a gravity.
    public init(_ kind: Kind, x: Double = 0, y: Double = 0) {
        self.kind = kind
        self.x = x
        self.y = y
    }

    /// The centre, no offset: the default.
    public static let center = GravityOption(.center)

    public var description: String {
        x == 0 && y == 0 && kind != .focusPoint ? kind.rawValue : "\(kind.rawValue):\(x):\(y)"
    }
}
