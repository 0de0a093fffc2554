import WebImage

/// The `trim` option: the border of one colour removed from the source before any other step (imgproxy's `trim`).
public struct TrimOption: Sendable, Hashable {
    /// How far a channel (0 to 255) may be from the background's and still count as background.
    public var threshold: Double
    /// The background colour; `nil` = the colour of the stored image's top-left pixel.
    public var color: RGBA?
    /// Whether the left and right cuts are made equal: the smaller of the two on both sides.
    public var equalHorizontal = false
    /// Whether the top and bottom cuts are made equal, as ``equalHorizontal``.
    public var equalVertical = false

    /// A trim at `threshold` of the `color` border (of the top-left pixel's colour when `nil`).
    public init(threshold: Double, color: RGBA? = nil, equalHorizontal: Bool = false, equalVertical: Bool = false) {
        self.threshold = threshold
        self.color = color
        self.equalHorizontal = equalHorizontal
        self.equalVertical = equalVertical
    }
}
