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
        flag(["iptc"], \.iptc)
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
        add(["hashsum", "hs"]) { args, o, _ throws(ImageServerError) in
            try OptionArguments.ensureMax("hashsum", args, 2)
            let kind = args[0]
            if kind == "none" {
                (o.hashsumType, o.expectedHashsum) = (nil, "")
                return
            }
            guard InfoHashsums.kinds.contains(kind) else {
                throw .argument("hashsum", kind, "none, md5, sha1, sha256 or sha512")
            }
            guard args.count == 2, !args[1].isEmpty else { throw .invalid("invalid hashsum arguments: no hashsum") }
            (o.hashsumType, o.expectedHashsum) = (kind, args[1])
        }
        addProOnly(to: &table)
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

    /// imgproxy Pro's info options that need what this server does not have (docs/info.md, "imgproxy Pro's other
    /// info options"), read with Pro's arguments. Those of video sources (`video_meta`, `video_thumbnail_second`,
    /// `video_thumbnail_keyframes`) change nothing in an answer the server can give, and are taken
    /// whatever they say; the others are taken when they ask for nothing (their defaults: `detect_objects:0`,
    /// `classify:0`, `crop:0:0`, `page:0`, `bypass_cache:0`, `cache_tags` without tags; `objects_position` only matters
    /// to a crop), and otherwise answered 404 naming the option, as imgproxy answers an option it cannot apply, rather
    /// than with a silently incomplete report.
    private static func addProOnly(to table: inout [String: Apply]) {
        func add(_ names: [String], _ apply: @escaping Apply) { for name in names { table[name] = apply } }
        for names in [["video_meta", "vm"], ["video_thumbnail_keyframes", "vtk"]] {
            add(names) { args, _, _ throws(ImageServerError) in _ = try Self.bool(names[0], args) }
        }
        add(["video_thumbnail_second", "vts"]) { args, _, _ throws(ImageServerError) in
            _ = try OptionsParser.single("video_thumbnail_second", args, OptionArguments.nonNegativeFloat)
        }
        add(["detect_objects", "do"]) { args, _, _ throws(ImageServerError) in
            if try Self.bool("detect_objects", args) { throw Self.unsupported("detect_objects", "object detection") }
        }
        add(["classify", "cl"]) { args, _, _ throws(ImageServerError) in
            guard !args.isEmpty else { throw .invalid("invalid classify arguments: top_k expected") }
            let top = try OptionArguments.nonNegativeInteger("classify", args[0])
            if top > 0 { throw Self.unsupported("classify", "classification") }
        }
        add(["crop", "c"]) { args, _, _ throws(ImageServerError) in
            var crop = ProcessingOptions()
            try OptionsParser.applyCrop(args, to: &crop)
            if crop.cropWidth > 0 || crop.cropHeight > 0 { throw Self.unsupported("crop", "crop coordinates") }
        }
        add(["objects_position", "obj_pos", "op"]) { args, _, _ throws(ImageServerError) in
            try OptionArguments.ensureMax("objects_position", args, 3)
        }
        add(["page", "pg"]) { args, _, _ throws(ImageServerError) in
            let page = try OptionsParser.single("page", args, OptionArguments.nonNegativeInteger)
            if page > 0 { throw Self.unsupported("page", "pages other than the first") }
        }
        add(["bypass_cache", "bc"]) { args, _, _ throws(ImageServerError) in
            if try Self.bool("bypass_cache", args) { throw Self.unsupported("bypass_cache", "imgproxy Pro's cache") }
        }
        add(["cache_tags", "ct"]) { args, _, _ throws(ImageServerError) in
            if args.contains(where: { !$0.isEmpty }) { throw Self.unsupported("cache_tags", "imgproxy Pro's cache") }
        }
    }

    /// The 404 of a Pro option asking for `feature`.
    private static func unsupported(_ option: String, _ feature: String) -> ImageServerError {
        .invalid("info option \(option) is not supported (\(feature))")
    }

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
