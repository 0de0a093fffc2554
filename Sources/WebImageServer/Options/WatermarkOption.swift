/// imgproxy's `watermark` option: how the server's watermark image (``ImageServerConfiguration/watermark``) is laid
/// over the result. Without a configured watermark image the option changes nothing, as in imgproxy.
public struct WatermarkOption: Sendable, Hashable {
    /// Where the watermark sits: one of imgproxy's gravity types without the smart and focus-point ones, or
    /// ``replicate``, which tiles it over the whole image.
    public struct Position: Sendable, Hashable, CustomStringConvertible {
        /// imgproxy's name (`ce`, `soea`, `re`, …).
        public let name: String

        private init(_ name: String) { self.name = name }

        /// The centre: the default.
        public static let center = Position("ce")
        /// The top edge, centred.
        public static let north = Position("no")
        /// The bottom edge, centred.
        public static let south = Position("so")
        /// The right edge, centred.
        public static let east = Position("ea")
        /// The left edge, centred.
        public static let west = Position("we")
        /// The top-right corner.
        public static let northEast = Position("noea")
        /// The top-left corner.
        public static let northWest = Position("nowe")
        /// The bottom-right corner.
        public static let southEast = Position("soea")
        /// The bottom-left corner.
        public static let southWest = Position("sowe")
        /// Tiled over the whole image (imgproxy's `re`); the offsets are the spacing between the tiles.
        public static let replicate = Position("re")

        /// Every position, by imgproxy's name.
        public static let byName = Dictionary(
            uniqueKeysWithValues: [
                center, north, south, east, west, northEast, northWest, southEast, southWest, replicate,
            ].map { ($0.name, $0) })

        public var description: String { name }

        /// The gravity that places a single watermark; `nil` for ``replicate``.
        var gravityKind: GravityOption.Kind? { GravityOption.Kind(rawValue: name) }
    }

    /// How opaque the watermark is, 0 to 1, multiplied by the setting's opacity; 0 (the default) is no watermark.
    public var opacity = 0.0
    /// Where the watermark sits.
    public var position = Position.center
    /// The horizontal offset from the edge the position names: pixels (scaled by the DPR) when its magnitude is at
    /// least 1, a fraction of the result's width below that; with ``Position/replicate``, the horizontal spacing
    /// between the tiles (a negative spacing cuts each tile to a cell that much narrower, as imgproxy's padding).
    public var x = 0.0
    /// The vertical offset, as ``x``.
    public var y = 0.0
    /// The watermark's size relative to the result's: it is fitted (larger or smaller) into `scale` × the result's
    /// width and height; 0 (the default, which a URL cannot set) keeps its size.
    public var scale = 0.0

    /// No watermark.
    public init() {}

    /// Whether the option asks for a watermark at all.
    public var isEnabled: Bool { opacity > 0 }
}

extension OptionsParser {
    /// `opacity[:position[:x_offset[:y_offset[:scale]]]]` (imgproxy's `applyWatermarkOption`): the opacity is
    /// required, an empty or missing later argument keeps its value. As imgproxy, up to seven arguments are taken;
    /// the last two (imgproxy Pro's) change nothing. The offsets are any numbers (negative `re` spacings included);
    /// a scale must be more than 0, as imgproxy's `parsePositiveNonZeroFloat` takes it (leave it out to keep the
    /// watermark's size).
    static func watermark(_ args: [String], current: WatermarkOption) throws(ImageServerError) -> WatermarkOption {
        try OptionArguments.ensureMax("watermark", args, 7)
        var watermark = current
        let opacity = try? OptionArguments.float("watermark opacity", args[0])
        guard let opacity, (0...1).contains(opacity) else {
            throw .argument("watermark opacity", args[0], "a number in 0-1")
        }
        watermark.opacity = opacity
        if args.count > 1, !args[1].isEmpty {
            guard let position = WatermarkOption.Position.byName[args[1]] else {
                throw .argument("watermark position", args[1], "ce, no, so, ea, we, noea, nowe, soea, sowe or re")
            }
            watermark.position = position
        }
        if args.count > 2, !args[2].isEmpty { watermark.x = try OptionArguments.float("watermark x offset", args[2]) }
        if args.count > 3, !args[3].isEmpty { watermark.y = try OptionArguments.float("watermark y offset", args[3]) }
        if args.count > 4, !args[4].isEmpty {
            watermark.scale = try OptionArguments.positiveFloat("watermark scale", args[4])
        }
        return watermark
    }
}
