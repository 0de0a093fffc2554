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

    public static let up = ImageOrientation(exif: 1)
    public static let upMirrored = ImageOrientation(exif: 2)
    public static let down = ImageOrientation(exif: 3)
    public static let downMirrored = ImageOrientation(exif: 4)
    public static let leftMirrored = ImageOrientation(exif: 5)
    public static let right = ImageOrientation(exif: 6)
    public static let rightMirrored = ImageOrientation(exif: 7)
    public static let left = ImageOrientation(exif: 8)

    /// Whether applying the orientation swaps width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }

    public var description: String {
        ["up", "upMirrored", "down", "downMirrored", "leftMirrored", "right", "rightMirrored", "left"][rawValue - 1]
    }
}
