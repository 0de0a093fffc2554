import Foundation

/// The info options, by every name imgproxy Pro gives them: how each applies its arguments.
enum InfoOptionTable {
    typealias Apply = @Sendable ([String], inout InfoOptions, InfoParsingContext) throws(ImageServerError) -> Void

    /// Every name, full and short, of the info options (without `preset`/`pr`).
    static let byName: [String: Apply] = {
        var table: [String: Apply] = [:]
        func add(_ names: [String], _ apply: @escaping Apply) { for name in names { table[name] = apply } }
        func flag(_ names: [String], _ key: any WritableKeyPath<InfoOptions, Bool> & Sendable) {
            add(names) { args, o, _ throws(ImageServerError) in o[keyPath: key] = try Self.bool(names[0], args) }
        }
        flag(["size", "s"], \.size)
        flag(["format", "f"], \.format)
        flag(["dimensions", "d"], \.dimensions)
        flag(["xmp"], \.xmp)
        flag(["colorspace", "cs"], \.colorspace)
        flag(["bands", "b"], \.bands)
        flag(["sample_format", "sf"], \.sampleFormat)
        flag(["pages_number", "pn"], \.pagesNumber)
        flag(["thumb_hash", "th"], \.thumbHash)
        flag(["perceptual_hash", "phash", "ph"], \.perceptualHash)
        add(["exif"]) { args, o, _ throws(ImageServerError) in
            (o.exif, o.exifCanonicalNames) = try Self.bools("exif", args, (o.exif, o.exifCanonicalNames))
        }
        add(["alpha", "a"]) { args, o, _ throws(ImageServerError) in
            (o.alpha, o.checksTransparency) = try Self.bools("alpha", args, (o.alpha, o.checksTransparency))
        }
        add(["average", "avg"]) { args, o, _ throws(ImageServerError) in
            (o.average, o.averageIgnoresTransparent) = try Self.bools(
                "average", args, (o.average, o.averageIgnoresTransparent))
        }
        add(["dominant_colors", "dc"]) { args, o, _ throws(ImageServerError) in
            (o.dominantColors, o.buildsMissingColors) = try Self.bools(
                "dominant_colors", args, (o.dominantColors, o.buildsMissingColors))
        }
        add(["palette", "p"]) { args, o, _ throws(ImageServerError) in
            let colors = try OptionsParser.single("palette", args, OptionArguments.nonNegativeInteger)
            guard colors == 0 || (2...256).contains(colors) else {
                throw .argument("palette", args[0], "0 or a number of colours from 2 to 256")
            }
            o.paletteColors = colors
        }
        add(["blurhash", "bh"]) { args, o, _ throws(ImageServerError) in
            try OptionArguments.ensureMax("blurhash", args, 2)
            guard args.count == 2 else { throw .invalid("invalid blurhash arguments: x and y components expected") }
            func components(_ value: String) throws(ImageServerError) -> Int {
                let count = try OptionArguments.nonNegativeInteger("blurhash", value)
                guard count <= 9 else { throw .argument("blurhash", value, "0 to 9 components") }
                return count
            }
            (o.blurHashX, o.blurHashY) = (try components(args[0]), try components(args[1]))
        }
        add(["calc_hashsums", "chs"]) { args, o, _ throws(ImageServerError) in
            var kinds: [String] = []
            for kind in args where !kind.isEmpty {
                guard InfoHashsums.kinds.contains(kind) else {
                    throw .argument("calc_hashsums", kind, "md5, sha1, sha256 or sha512")
                }
                if !kinds.contains(kind) { kinds.append(kind) }
            }
            o.hashsums = kinds
        }
        add(["cachebuster", "cb"]) { args, o, _ throws(ImageServerError) in
            o.cacheBuster = try OptionsParser.single("cachebuster", args) { _, value in value }
        }
        add(["expires", "exp"]) { args, o, context throws(ImageServerError) in
            o.expires = try OptionsParser.expires(args, now: context.now)
        }
        add(["max_src_resolution", "msr"]) { args, o, context throws(ImageServerError) in
            try context.checkSecurityOptions()
            let megapixels = try OptionsParser.single("max_src_resolution", args, OptionArguments.nonNegativeFloat)
            o.maxSourceResolution = Int(megapixels * 1_000_000)
        }
        add(["max_src_file_size", "msfs"]) { args, o, context throws(ImageServerError) in
            try context.checkSecurityOptions()
            o.maxSourceFileSize = try OptionsParser.single(
                "max_src_file_size", args, OptionArguments.nonNegativeInteger)
        }
        return table
    }()

    private static func bool(_ option: String, _ args: [String]) throws(ImageServerError) -> Bool {
        try OptionsParser.bool(option, args)
    }

    /// `enabled[:second]`, the second kept when not given.
    private static func bools(
        _ option: String, _ args: [String], _ current: (Bool, Bool)
    ) throws(ImageServerError) -> (Bool, Bool) {
        try OptionArguments.ensureMax(option, args, 2)
        return (OptionArguments.bool(args[0]), args.count > 1 ? OptionArguments.bool(args[1]) : current.1)
    }
}

/// What option parsing needs from the request and the server.
struct InfoParsingContext: Sendable {
    /// Unix time now, for `expires`.
    var now: Int
    /// Whether `max_src_resolution` and `max_src_file_size` may be given.
    var allowsSecurityOptions: Bool

    func checkSecurityOptions() throws(ImageServerError) {
        guard allowsSecurityOptions else {
            throw ImageServerError(status: 403, "security processing options are not allowed")
        }
    }
}
