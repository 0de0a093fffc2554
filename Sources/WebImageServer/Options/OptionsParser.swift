import Foundation
import WebImage

/// Applies processing options to a ``ProcessingOptions`` value as imgproxy's option parser does: each option as its
/// ``OptionTable`` entry says, and `preset`/`pr` here, as it expands into other options.
struct OptionsParser: Sendable {
    let presets: Presets
    /// Which options URLs may use.
    var rules = OptionRules()
    /// The options every request starts from (the server's defaults).
    var defaults = ProcessingOptions()

    /// The options of a request: the server's defaults, the client's `hints`, the `default` preset, then `options`
    /// in order.
    func parse(
        _ options: [URLOption], now: Int, hints: ClientHints = .none
    ) throws(ImageServerError) -> ProcessingOptions {
        var result = defaults
        hints.apply(to: &result)
        if presets.table["default"] != nil {
            try applyPresets(["default"], to: &result, usedPresets: [], now: now)
        }
        try apply(options, to: &result, usedPresets: [], now: now)
        return result
    }

    /// The options of an only-presets URL: the server's defaults, the client's `hints`, the `default` preset, then
    /// the presets `names`.
    func parse(
        presets names: [String], now: Int, hints: ClientHints = .none
    ) throws(ImageServerError) -> ProcessingOptions {
        var result = defaults
        hints.apply(to: &result)
        if presets.table["default"] != nil {
            try applyPresets(["default"], to: &result, usedPresets: [], now: now)
        }
        try applyPresets(names, to: &result, usedPresets: [], now: now)
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
        let entry = OptionTable.byName[option.name]
        try rules.check(option.name, entry: entry, inPreset: !usedPresets.isEmpty)
        if option.name == "preset" || option.name == "pr" {
            try applyPresets(option.args, to: &o, usedPresets: usedPresets, now: now)
        } else if let entry {
            try entry.apply(option.args, &o, now)
        } else {
            throw .invalid("unknown processing option \(option.name.prefix(64))")
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
}

/// The argument parsers of ``OptionTable``'s entries (the geometry's are in `OptionsParser+Geometry.swift`).
extension OptionsParser {
    /// The one argument of `option`, read by `parse`.
    static func single<T>(
        _ option: String, _ args: [String], _ parse: (String, String) throws(ImageServerError) -> T
    ) throws(ImageServerError) -> T {
        try OptionArguments.ensureMax(option, args, 1)
        return try parse(option, args[0])
    }

    /// The one boolean argument of `option`.
    static func bool(_ option: String, _ args: [String]) throws(ImageServerError) -> Bool {
        try OptionArguments.ensureMax(option, args, 1)
        return OptionArguments.bool(args[0])
    }

    /// A rotation: a multiple of 90 degrees, normalised to 0, 90, 180 or 270.
    static func rotation(_ args: [String]) throws(ImageServerError) -> Int {
        let angle = try single("rotate", args, OptionArguments.int64)
        guard angle % 90 == 0 else { throw .invalid("rotation angle must be a multiple of 90") }
        return (angle % 360 + 360) % 360
    }

    /// `rrggbb`, `rgb` or `r:g:b`; an empty colour is none.
    static func background(_ args: [String]) throws(ImageServerError) -> RGBA? {
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

    /// `format:quality` pairs.
    static func applyFormatQuality(_ args: [String], to o: inout ProcessingOptions) throws(ImageServerError) {
        guard args.count % 2 == 0 else { throw .invalid("missing format_quality for \(args[args.count - 1])") }
        for index in stride(from: 0, to: args.count, by: 2) {
            let format = try OutputFormat.named(args[index], option: "format_quality")
            o.formatQuality[format] = try OptionArguments.quality("format_quality", args[index + 1])
        }
    }

    /// A Unix time in the future; 0 or less is never.
    static func expires(_ args: [String], now: Int) throws(ImageServerError) -> Int? {
        let timestamp = try single("expires", args, OptionArguments.integerTimestamp)
        if timestamp > 0 && timestamp < now { throw .invalid("expired URL") }
        return timestamp <= 0 ? nil : timestamp
    }

    /// `name[:base64]`.
    static func filename(_ args: [String]) throws(ImageServerError) -> String {
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
