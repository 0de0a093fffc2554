/// The EXIF orientation of stored pixels (values 1 to 8 of the TIFF `Orientation` tag).
///
/// Decoders apply it so that decoded pixels are upright; ``Image/sourceOrientation`` records what the file said.
public struct ImageOrientation: Hashable, Sendable, CustomStringConvertible {
    /// The EXIF value, 1 to 8.
    public let rawValue: Int

    /// The orientation for an EXIF value; `nil` outside 1...8.
    public init?(rawValue: Int) {
        guard (1...8).contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    private init(exif: Int) { rawValue = exif }

    /// EXIF 1: stored as shown.
    public static let up = ImageOrientation(exif: 1)
    /// EXIF 2: mirrored left to right.
    public static let upMirrored = ImageOrientation(exif: 2)
    /// EXIF 3: turned 180°.
    public static let down = ImageOrientation(exif: 3)
    /// EXIF 4: mirrored top to bottom.
    public static let downMirrored = ImageOrientation(exif: 4)
    /// EXIF 5: mirrored along the top-left to bottom-right diagonal.
    public static let leftMirrored = ImageOrientation(exif: 5)
    /// EXIF 6: shown turned 90° clockwise.
    public static let right = ImageOrientation(exif: 6)
    /// EXIF 7: mirrored along the top-right to bottom-left diagonal.
    public static let rightMirrored = ImageOrientation(exif: 7)
    /// EXIF 8: shown turned 90° counter-clockwise.
    public static let left = ImageOrientation(exif: 8)

    /// Whether applying the orientation swaps width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }

    public var description: String {
        ["up", "upMirrored", "down", "downMirrored", "leftMirrored", "right", "rightMirrored", "left"][rawValue - 1]
    }
}
