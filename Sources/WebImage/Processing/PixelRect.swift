/// A rectangle in whole pixels, origin at the top-left.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    /// The left edge.
    public var x: Int
    /// The top edge.
    public var y: Int
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int

    /// Creates a rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The rectangle's size.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    public var description: String { "\(x),\(y),\(width)x\(height)" }
}

/// Where a smaller rectangle sits inside a larger one: the centre, an edge or a corner.
public struct Gravity: Hashable, Sendable, CustomStringConvertible {
    /// Horizontal placement: 0 left, 0.5 centre, 1 right.
    public let horizontal: Double
    /// Vertical placement: 0 top, 0.5 centre, 1 bottom.
    public let vertical: Double
    /// The name, as in cache keys (`center`, `topleft`, …).
    public let description: String

    private init(_ horizontal: Double, _ vertical: Double, _ name: String) {
        self.horizontal = horizontal
        self.vertical = vertical
        description = name
    }

    /// Centred on both axes.
    public static let center = Gravity(0.5, 0.5, "center")
    /// The top edge, centred across.
    public static let top = Gravity(0.5, 0, "top")
    /// The bottom edge, centred across.
    public static let bottom = Gravity(0.5, 1, "bottom")
    /// The left edge, centred down.
    public static let left = Gravity(0, 0.5, "left")
    /// The right edge, centred down.
    public static let right = Gravity(1, 0.5, "right")
    /// The top-left corner.
    public static let topLeft = Gravity(0, 0, "topleft")
    /// The top-right corner.
    public static let topRight = Gravity(1, 0, "topright")
    /// The bottom-left corner.
    public static let bottomLeft = Gravity(0, 1, "bottomleft")
    /// The bottom-right corner.
    public static let bottomRight = Gravity(1, 1, "bottomright")

    /// All gravities, for parsing names.
    public static let all: [Gravity] = [center, top, bottom, left, right, topLeft, topRight, bottomLeft, bottomRight]

    /// A rectangle of `size` placed in `container` by this gravity.
    public func place(_ size: PixelSize, in container: PixelSize) -> PixelRect {
        PixelRect(
            x: Int((Double(container.width - size.width) * horizontal).rounded(.down)),
            y: Int((Double(container.height - size.height) * vertical).rounded(.down)),
            width: size.width, height: size.height)
    }
}
