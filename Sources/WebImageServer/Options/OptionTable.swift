import WebImage

/// Every imgproxy processing option the server takes, one ``OptionEntry`` each, in the order of the README's option
/// table (but `preset`, which ``OptionsParser`` expands into other options). The parser looks options up here, the
/// canonical URL writes the entries' segments in this order, and the cache identity joins the segments of the entries
/// that change the result: an option cannot be parsed without also being written and, when it changes the result,
/// being part of the cache key.
enum OptionTable {
    /// All entries, in the README's order.
    static let entries = geometry + output + handling

    /// The entry of each name and alias.
    static let byName = Dictionary(uniqueKeysWithValues: entries.flatMap { entry in entry.names.map { ($0, entry) } })

    /// The entries written as path segments by the canonical URL: all but `format`, which it writes as the extension.
    static let pathEntries = entries.filter { $0.name != "format" }

    /// The entries whose segments make up ``ProcessingOptions/cacheIdentity``.
    static let resultEntries = entries.filter(\.changesResult)

    /// Colour, filters, watermark, encoding, metadata, cache and response-header options, `background` to
    /// `return_attachment`, in the README's order.
    static let output: [OptionEntry] = [
        OptionEntry(
            names: ["background", "bg"], changesResult: true, sample: ["255", "128", "0"],
            apply: { args, o, _ throws(ImageServerError) in o.background = try OptionsParser.background(args) },
            write: { o in o.background.map { "background:\($0.red):\($0.green):\($0.blue)" } }),
        .number(["blur", "bl"], \.blur, sample: "1.5", parse: OptionArguments.nonNegativeFloat),
        .number(["sharpen", "sh"], \.sharpen, sample: "0.3", parse: OptionArguments.nonNegativeFloat),
        .integer(["pixelate", "pix"], \.pixelate, sample: "8", parse: OptionArguments.pixelSize),
        OptionEntry(
            names: ["watermark", "wm"], changesResult: true, sample: ["0.5", "soea", "10", "-5", "0.25"],
            apply: { args, o, _ throws(ImageServerError) in
                o.watermark = try OptionsParser.watermark(args, current: o.watermark)
            },
            write: { o in
                let w = o.watermark
                guard w != WatermarkOption() else { return nil }
                let numbers = [w.opacity, w.x, w.y].map(ProcessingOptions.number)
                // A scale of 0 (the watermark's own size) is left out: a URL cannot write it, as in imgproxy.
                let scale = w.scale > 0 ? ":" + ProcessingOptions.number(w.scale) : ""
                return "watermark:\(numbers[0]):\(w.position):\(numbers[1]):\(numbers[2])\(scale)"
            }),
        .integer(["quality", "q"], \.quality, sample: "90", parse: OptionArguments.quality),
        OptionEntry(
            names: ["format_quality", "fq"], changesResult: true, sample: ["webp", "70", "jpg", "60"],
            apply: { args, o, _ throws(ImageServerError) in try OptionsParser.applyFormatQuality(args, to: &o) },
            write: { o in
                guard !o.formatQuality.isEmpty else { return nil }
                let pairs = o.formatQuality.map { (ProcessingOptions.name($0.key), $0.value) }.sorted { $0.0 < $1.0 }
                return "format_quality:" + pairs.map { "\($0.0):\($0.1)" }.joined(separator: ":")
            }),
        OptionEntry(
            names: ["format", "f", "ext"], changesResult: true, sample: ["webp"],
            apply: { args, o, _ throws(ImageServerError) in
                try OptionArguments.ensureMax("format", args, 1)
                o.format = try OutputFormat.named(args[0], option: "format")
            },
            write: { o in o.format.map { "format:\(ProcessingOptions.name($0))" } }),
        .flag(["strip_metadata", "sm"], \.stripMetadata),
        .flag(["strip_color_profile", "scp"], \.stripColorProfile),
        .flag(["preserve_hdr", "ph"], \.preserveHDR),
        .flag(["auto_rotate", "ar"], \.autoRotate),
        OptionEntry(
            names: ["cachebuster", "cb"], changesResult: true, sample: ["abc"],
            apply: { args, o, _ throws(ImageServerError) in
                try OptionArguments.ensureMax("cachebuster", args, 1)
                o.cacheBuster = args[0]
            },
            write: { o in o.cacheBuster.isEmpty ? nil : "cachebuster:\(o.cacheBuster)" }),
        OptionEntry(
            names: ["expires", "exp"], changesResult: false, sample: ["4000000000"],
            apply: { args, o, now throws(ImageServerError) in o.expires = try OptionsParser.expires(args, now: now) },
            write: { o in o.expires.map { "expires:\($0)" } }),
        OptionEntry(
            names: ["filename", "fn"], changesResult: false, sample: ["cGhvdG8", "1"],
            apply: { args, o, _ throws(ImageServerError) in o.filename = try OptionsParser.filename(args) },
            write: { o in
                o.filename.isEmpty ? nil : "filename:\(Base64URL.encode(Array(o.filename.utf8))):1"
            }),
        .flag(["return_attachment", "att"], \.returnAttachment, changesResult: false),
    ]
}
