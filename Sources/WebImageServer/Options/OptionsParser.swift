import Foundation
import WebImage

/// Applies processing options to a ``ProcessingOptions`` value as imgproxy's option parser does.
struct OptionsParser: Sendable {
    let presets: Presets

    /// The options of a request: the `default` preset, then `options` in order.
    func parse(_ options: [URLOption], now: Int) throws(ImageServerError) -> ProcessingOptions {
        var result = ProcessingOptions()
        if presets.table["default"] != nil {
            try applyPresets(["default"], to: &result, usedPresets: [], now: now)
        }
        try apply(options, to: &result, usedPresets: [], now: now)
        return result
    }

    func apply(
        _ options: [URLOption], to result: inout ProcessingOptions, usedPresets: [String], now: Int
    ) throws(ImageServerError) {
        for option in options {
            try apply(option, to: &result, usedPresets: usedPresets, now: now)
        }
    }

    private func apply(
        _ option: URLOption, to o: inout ProcessingOptions, usedPresets: [String], now: Int
    ) throws(ImageServerError) {
        let args = option.args
        switch option.name {
        case "resize", "rs": try applyResize(args, to: &o)
        case "size", "s": try applySize(args, to: &o)
        case "resizing_type", "rt": o.resizingType = try resizingType(args)
        case "width", "w": o.width = try single("width", args, OptionArguments.nonNegativeInteger)
        case "height", "h": o.height = try single("height", args, OptionArguments.nonNegativeInteger)
        case "min-width", "mw": o.minWidth = try single("min-width", args, OptionArguments.nonNegativeInteger)
        case "min-height", "mh": o.minHeight = try single("min-height", args, OptionArguments.nonNegativeInteger)
        case "zoom", "z": try applyZoom(args, to: &o)
        case "dpr": o.dpr = try single("dpr", args, OptionArguments.positiveFloat)
        case "enlarge", "el": o.enlarge = try bool("enlarge", args)
        case "extend", "ex": (o.extend, o.extendGravity) = try extend("extend", args, current: o.extendGravity)
        case "extend_aspect_ratio", "extend_ar", "exar":
            (o.extendAspectRatio, o.extendAspectRatioGravity) = try extend(
                "extend_aspect_ratio", args, current: o.extendAspectRatioGravity)
        case "gravity", "g": o.gravity = try gravity("gravity", args, current: o.gravity, allowsSmart: true)
        case "crop", "c": try applyCrop(args, to: &o)
        case "padding", "pd": try applyPadding(args, to: &o)
        case "rotate", "rot": o.rotate = try rotation(args)
        case "flip", "fl": try applyFlip(args, to: &o)
        case "background", "bg": o.background = try background(args)
        case "blur", "bl": o.blur = try single("blur", args, OptionArguments.nonNegativeFloat)
        case "sharpen", "sh": o.sharpen = try single("sharpen", args, OptionArguments.nonNegativeFloat)
        case "quality", "q": o.quality = try single("quality", args, OptionArguments.quality)
        case "format_quality", "fq": try applyFormatQuality(args, to: &o)
        case "format", "f", "ext":
            try OptionArguments.ensureMax("format", args, 1)
            o.format = try OutputFormat.named(args[0], option: "format")
        case "strip_metadata", "sm": o.stripMetadata = try bool("strip_metadata", args)
        case "strip_color_profile", "scp": o.stripColorProfile = try bool("strip_color_profile", args)
        case "auto_rotate", "ar": o.autoRotate = try bool("auto_rotate", args)
        case "cachebuster", "cb":
            try OptionArguments.ensureMax("cachebuster", args, 1)
            o.cacheBuster = args[0]
        case "expires", "exp": o.expires = try expires(args, now: now)
        case "filename", "fn": o.filename = try filename(args)
        case "return_attachment", "att": o.returnAttachment = try bool("return_attachment", args)
        case "preset", "pr": try applyPresets(args, to: &o, usedPresets: usedPresets, now: now)
        default: throw .invalid("unknown processing option \(option.name.prefix(64))")
        }
    }

    func applyPresets(
        _ names: [String], to o: inout ProcessingOptions, usedPresets: [String], now: Int
    ) throws(ImageServerError) {
        for name in names {
            guard let options = presets.table[name] else { throw .invalid("unknown preset \(name.prefix(64))") }
            if usedPresets.contains(name) { continue }  // recursive use is skipped, as imgproxy does
            o.usedPresets.append(name)
            try apply(options, to: &o, usedPresets: usedPresets + [name], now: now)
        }
    }

    func single<T>(
        _ option: String, _ args: [String], _ parse: (String, String) throws(ImageServerError) -> T
    ) throws(ImageServerError) -> T {
        try OptionArguments.ensureMax(option, args, 1)
        return try parse(option, args[0])
    }

    func bool(_ option: String, _ args: [String]) throws(ImageServerError) -> Bool {
        try OptionArguments.ensureMax(option, args, 1)
        return OptionArguments.bool(args[0])
    }

    private func rotation(_ args: [String]) throws(ImageServerError) -> Int {
        let angle = try single("rotate", args, OptionArguments.integer)
        guard angle % 90 == 0 else { throw .invalid("rotation angle must be a multiple of 90") }
        return (angle % 360 + 360) % 360
    }

    private func background(_ args: [String]) throws(ImageServerError) -> RGBA? {
        switch args.count {
        case 1:
            return args[0].isEmpty ? nil : try OptionArguments.hexColor("background", args[0])
        case 3:
            return RGBA(
                red: try OptionArguments.channel("background.R", args[0]),
                green: try OptionArguments.channel("background.G", args[1]),
                blue: try OptionArguments.channel("background.B", args[2]))
        default:
            throw .invalid("invalid background arguments: \(args.joined(separator: ":").prefix(64))")
        }
    }

    private func applyFormatQuality(_ args: [String], to o: inout ProcessingOptions) throws(ImageServerError) {
        guard args.count % 2 == 0 else { throw .invalid("missing format_quality for \(args[args.count - 1])") }
        for index in stride(from: 0, to: args.count, by: 2) {
            let format = try OutputFormat.named(args[index], option: "format_quality")
            o.formatQuality[format] = try OptionArguments.quality("format_quality", args[index + 1])
        }
    }

    private func expires(_ args: [String], now: Int) throws(ImageServerError) -> Int? {
        let timestamp = try single("expires", args, OptionArguments.integerTimestamp)
        if timestamp > 0 && timestamp < now { throw .invalid("expired URL") }
        return timestamp <= 0 ? nil : timestamp
    }

    private func filename(_ args: [String]) throws(ImageServerError) -> String {
        try OptionArguments.ensureMax("filename", args, 2)
        if args.count > 1, OptionArguments.bool(args[1]) {
            guard let data = OptionArguments.base64URL(args[0]), let text = String(data: data, encoding: .utf8) else {
                throw .argument("filename", args[0], "URL-safe base64-encoded string")
            }
            return text
        }
        return args[0]
    }
}

extension OptionArguments {
    /// A Unix timestamp (any 64-bit integer, as imgproxy's `ParseInt`).
    static func integerTimestamp(_ option: String, _ value: String) throws(ImageServerError) -> Int {
        guard let number = Int64(value), value.utf8.count <= 20 else {
            throw .argument(option, value, "unix timestamp")
        }
        return Int(number)
    }
}
