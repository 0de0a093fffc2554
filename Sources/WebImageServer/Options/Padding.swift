/// The `padding` option: pixels added on each side of the result, before the DPR scales them.
public struct Padding: Sendable, Hashable {
    /// Pixels above the image.
    public var top = 0
    /// Pixels right of the image.
    public var right = 0
    /// Pixels below the image.
    public var bottom = 0
    /// Pixels left of the image.
    public var left = 0

    /// No padding.
    public init() {}

    /// Padding of these sizes.
    public init(top: Int, right: Int, bottom: Int, left: Int) {
        (self.top, self.right, self.bottom, self.left) = (top, right, bottom, left)
    }

    /// Whether any side is padded (imgproxy's `PaddingEnabled`).
    public var isEnabled: Bool { top != 0 || right != 0 || bottom != 0 || left != 0 }

    /// The sides scaled by `dpr` as imgproxy's `ScaleToEven`, each kept in 0...``PixelMath/limit`` / 16 so that
    /// sizes plus padding cannot overflow.
    func scaled(by dpr: Double) -> Padding {
        func side(_ value: Int) -> Int {
            max(0, min(PixelMath.scaleToEven(value, dpr), Int(PixelMath.limit) / 16))
        }
        return Padding(top: side(top), right: side(right), bottom: side(bottom), left: side(left))
    }
}
