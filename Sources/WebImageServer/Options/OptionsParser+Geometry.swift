/// The options that shape the geometry: resize, size, extend, extend_aspect_ratio, gravity, crop, trim, padding,
/// flip.
extension OptionsParser {
    /// One of the ``ResizingType`` names.
    static func resizingType(_ args: [String]) throws(ImageServerError) -> ResizingType {
        try OptionArguments.ensureMax("resizing_type", args, 1)
        guard let type = ResizingType(rawValue: args[0]) else {
            throw .argument("resizing_type", args[0], "fit, fill, fill-down, force or auto")
        }
        return type
    }

    /// `type:width:height:enlarge:extend[:gravity…]`; an empty type keeps its value.
    static func applyResize(_ args: [String], to o: inout ProcessingOptions) throws(ImageServerError) {
        try OptionArguments.ensureMax("resize", args, 8)
        if !args[0].isEmpty { o.resizingType = try resizingType([args[0]]) }
        if args.count > 1 { try applySize(Array(args.dropFirst()), to: &o) }
    }

    /// `width:height:enlarge:extend[:gravity…]`; empty arguments keep their value.
    static func applySize(_ args: [String], to o: inout ProcessingOptions) throws(ImageServerError) {
        try OptionArguments.ensureMax("size", args, 7)
        if args.count >= 1, !args[0].isEmpty { o.width = try OptionArguments.nonNegativeInteger("width", args[0]) }
        if args.count >= 2, !args[1].isEmpty { o.height = try OptionArguments.nonNegativeInteger("height", args[1]) }
        if args.count >= 3, !args[2].isEmpty { o.enlarge = OptionArguments.bool(args[2]) }
        if args.count >= 4, !args[3].isEmpty {
            (o.extend, o.extendGravity) = try extend("extend", Array(args.dropFirst(3)), current: o.extendGravity)
        }
    }

    /// `extend` and `extend_aspect_ratio`: `enabled[:gravity[:x:y]]` (imgproxy's `parseExtend`).
    static func extend(
        _ option: String, _ args: [String], current: GravityOption
    ) throws(ImageServerError) -> (Bool, GravityOption) {
        try OptionArguments.ensureMax(option, args, 4)
        guard args.count > 1 else { return (OptionArguments.bool(args[0]), current) }
        let gravity = try gravity(option + " gravity", Array(args.dropFirst()), current: current, allowsSmart: false)
        return (OptionArguments.bool(args[0]), gravity)
    }

    /// `threshold[:color[:equal_hor[:equal_ver]]]` (imgproxy's `applyTrimOption`): an empty threshold turns the trim
    /// off, an empty colour is the top-left pixel's, an empty or missing `equal_*` keeps its value.
    static func trim(_ args: [String], current: TrimOption?) throws(ImageServerError) -> TrimOption? {
        try OptionArguments.ensureMax("trim", args, 4)
        guard !args[0].isEmpty else { return nil }
        var trim = TrimOption(
            threshold: try OptionArguments.nonNegativeFloat("trim threshold", args[0]),
            equalHorizontal: current?.equalHorizontal ?? false, equalVertical: current?.equalVertical ?? false)
        if args.count > 1, !args[1].isEmpty { trim.color = try OptionArguments.hexColor("trim color", args[1]) }
        if args.count > 2, !args[2].isEmpty { trim.equalHorizontal = OptionArguments.bool(args[2]) }
        if args.count > 3, !args[3].isEmpty { trim.equalVertical = OptionArguments.bool(args[3]) }
        return trim
    }

    /// `top[:right[:bottom[:left]]]`: a side not given takes its opposite (right and bottom take top), as CSS and
    /// imgproxy's `applyPaddingOption` do; an empty top keeps its value.
    static func applyPadding(_ args: [String], to o: inout ProcessingOptions) throws(ImageServerError) {
        try OptionArguments.ensureMax("padding", args, 4)
        func side(_ index: Int, _ name: String) throws(ImageServerError) -> Int? {
            guard args.count > index, !args[index].isEmpty else { return nil }
            return try OptionArguments.nonNegativeInteger("padding " + name, args[index])
        }
        var padding = o.padding
        if let top = try side(0, "top") { padding.top = top }
        padding.right = try side(1, "right") ?? padding.top
        padding.bottom = try side(2, "bottom") ?? padding.top
        padding.left = try side(3, "left") ?? padding.right
        o.padding = padding
    }

    /// `zoom:X[:Y]`: one factor for both axes, or one each; each a positive number (imgproxy's `applyZoomOption`).
    static func applyZoom(_ args: [String], to o: inout ProcessingOptions) throws(ImageServerError) {
        try OptionArguments.ensureMax("zoom", args, 2)
        o.zoomWidth = try OptionArguments.positiveFloat("zoom", args[0])
        o.zoomHeight = args.count > 1 ? try OptionArguments.positiveFloat("zoom", args[1]) : o.zoomWidth
    }

    /// `horizontal[:vertical]` booleans; an empty one keeps its value.
    static func applyFlip(_ args: [String], to o: inout ProcessingOptions) throws(ImageServerError) {
        try OptionArguments.ensureMax("flip", args, 2)
        if !args[0].isEmpty { o.flipHorizontal = OptionArguments.bool(args[0]) }
        if args.count > 1, !args[1].isEmpty { o.flipVertical = OptionArguments.bool(args[1]) }
    }

    /// `width:height[:gravity…]`; the crop gravity starts from the centre.
    static func applyCrop(_ args: [String], to o: inout ProcessingOptions) throws(ImageServerError) {
        o.cropWidth = try OptionArguments.cropSize("crop width", args[0])
        if args.count > 1 { o.cropHeight = try OptionArguments.cropSize("crop height", args[1]) }
        if args.count > 2 {
            o.cropGravity = try gravity(
                "crop gravity", Array(args.dropFirst(2)), current: o.cropGravity ?? .center, allowsSmart: true)
        }
    }

    /// `type[:x[:y]]`; `sm` takes no offsets, `fp` exactly two in 0...1. Offsets not given keep their value.
    static func gravity(
        _ option: String, _ args: [String], current: GravityOption, allowsSmart: Bool
    ) throws(ImageServerError) -> GravityOption {
        guard let kind = GravityOption.Kind(rawValue: args[0]), allowsSmart || kind != .smart else {
            let names = GravityOption.Kind.allCases.filter { allowsSmart || $0 != .smart }.map(\.rawValue)
            throw .argument(option, args[0], names.joined(separator: ", "))
        }
        var result = GravityOption(kind, x: current.x, y: current.y)
        switch kind {
        case .smart:
            guard args.count == 1 else { throw .invalid("invalid \(option) arguments: sm takes none") }
            return GravityOption(.smart)
        case .focusPoint:
            guard args.count == 3 else { throw .invalid("invalid \(option) arguments: fp needs x and y") }
        default:
            try OptionArguments.ensureMax(option, args, 3)
        }
        if args.count > 1, !args[1].isEmpty { result.x = try offset(option + " x", args[1], kind) }
        if args.count > 2, !args[2].isEmpty { result.y = try offset(option + " y", args[2], kind) }
        return result
    }

    private static func offset(
        _ option: String, _ value: String, _ kind: GravityOption.Kind
    ) throws(ImageServerError) -> Double {
        let number = try OptionArguments.float(option, value)
        guard kind != .focusPoint || (0...1).contains(number) else {
            throw .argument(option, value, "a number in 0-1")
        }
        return number
    }
}
