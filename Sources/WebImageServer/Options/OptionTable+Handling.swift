import WebImage

extension OptionTable {
    /// imgproxy's metadata, encoding and handling options that follow `return_attachment` in this table
    /// (`keep_copyright` to `raw`), then its security options, which ``OptionRules`` refuses unless allowed.
    static let handling: [OptionEntry] = [
        .flag(["keep_copyright", "kcr"], \.keepCopyright),
        .flag(["enforce_thumbnail", "eth"], \.enforceThumbnail),
        .integer(["max_bytes", "mb"], \.maxBytes, sample: "10000", parse: OptionArguments.nonNegativeInt64),
        OptionEntry(
            names: ["skip_processing", "skp"], changesResult: true, sample: ["jpg", "png"],
            apply: { args, o, _ throws(ImageServerError) in
                for name in args {
                    guard let format = OutputFormat.byName[name.lowercased()] else {
                        throw .invalid("invalid image format in skip_processing: \(name.prefix(64))")
                    }
                    o.skipProcessingFormats.insert(format)
                }
            },
            write: { o in
                guard !o.skipProcessingFormats.isEmpty else { return nil }
                let names = o.skipProcessingFormats.map(ProcessingOptions.name).sorted()
                return "skip_processing:" + names.joined(separator: ":")
            }),
        .flag(["raw"], \.raw),
        .security(
            ["max_src_resolution", "msr"], \.security.maxSourceResolution, sample: "2.5",
            parse: OptionArguments.nonNegativeFloat, spell: ProcessingOptions.number),
        .security(
            ["max_src_file_size", "msfs"], \.security.maxSourceFileSize, sample: "1000000",
            parse: OptionArguments.int64, spell: { String($0) }),
        .security(
            ["max_animation_frames", "maf"], \.security.maxAnimationFrames, sample: "3",
            parse: OptionArguments.positiveInt64, spell: { String($0) }),
        .security(
            ["max_animation_frame_resolution", "mafr"], \.security.maxAnimationFrameResolution, sample: "0.5",
            parse: OptionArguments.nonNegativeFloat, spell: ProcessingOptions.number),
        .security(
            ["max_result_dimension", "mrd"], \.security.maxResultDimension, sample: "500",
            parse: OptionArguments.int64, spell: { String($0) }),
    ]
}

extension OptionEntry {
    /// A security option of one argument stored at `field` (`nil` = the server's limit), refused unless
    /// ``OptionRules/allowsSecurityOptions``.
    static func security<Value: Equatable & Sendable>(
        _ names: [String], _ field: any WritableKeyPath<ProcessingOptions, Value?> & Sendable, sample: String,
        parse: @escaping @Sendable (_ option: String, _ value: String) throws(ImageServerError) -> Value,
        spell: @escaping @Sendable (Value) -> String
    ) -> OptionEntry {
        let name = names[0]
        return OptionEntry(
            names: names, changesResult: true, sample: [sample],
            apply: { args, o, _ throws(ImageServerError) in
                o[keyPath: field] = try OptionsParser.single(name, args, parse)
            },
            write: { o in o[keyPath: field].map { "\(name):\(spell($0))" } }, isSecurity: true)
    }
}
