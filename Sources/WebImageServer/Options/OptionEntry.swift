/// One imgproxy processing option, spelled once: its names, how its URL arguments apply to ``ProcessingOptions``,
/// how the canonical URL writes it back, and whether it changes the result. ``OptionTable`` lists them all; the
/// parser, ``ProcessingOptions/canonicalPath(source:)`` and ``ProcessingOptions/cacheIdentity`` are derived from it.
struct OptionEntry: Sendable {
    /// Applies an option's URL arguments (at least one) to options, at a Unix time (the one `expires` is checked at).
    typealias Apply =
        @Sendable (_ args: [String], _ options: inout ProcessingOptions, _ now: Int) throws(ImageServerError) -> Void

    /// The long name, which the canonical URL writes, then the aliases.
    let names: [String]
    /// Whether the option changes the result's pixels or encoding (or, as `cachebuster`, its cache entry) rather
    /// than only response headers: its segment is then part of ``ProcessingOptions/cacheIdentity``.
    let changesResult: Bool
    /// Arguments that set a value other than the default, for the table's tests.
    let sample: [String]
    /// Applies the option's arguments.
    let apply: Apply
    /// The option's canonical segment (`name:args`, by the long name) for these options, `nil` at the default; always
    /// `nil` for an option that only sets fields other entries write (`resize`, `size`).
    let write: @Sendable (ProcessingOptions) -> String?
    /// Whether it is one of imgproxy's security options, refused unless ``OptionRules/allowsSecurityOptions``.
    var isSecurity = false

    /// The long name.
    var name: String { names[0] }

    /// A boolean option stored at `field`, written as `name:1` or `name:0` when it differs from the default.
    static func flag(
        _ names: [String], _ field: any WritableKeyPath<ProcessingOptions, Bool> & Sendable, changesResult: Bool = true
    ) -> OptionEntry {
        let name = names[0]
        let standard = ProcessingOptions()[keyPath: field]
        return OptionEntry(
            names: names, changesResult: changesResult, sample: [standard ? "0" : "1"],
            apply: { args, o, _ throws(ImageServerError) in o[keyPath: field] = try OptionsParser.bool(name, args) },
            write: { o in o[keyPath: field] == standard ? nil : "\(name):\(o[keyPath: field] ? 1 : 0)" })
    }

    /// An option of one argument stored at `field`: `parse` reads it, `spell` writes it when it differs from the
    /// default.
    static func value<Value: Equatable & Sendable>(
        _ names: [String], _ field: any WritableKeyPath<ProcessingOptions, Value> & Sendable, sample: String,
        parse: @escaping @Sendable (_ option: String, _ value: String) throws(ImageServerError) -> Value,
        spell: @escaping @Sendable (Value) -> String
    ) -> OptionEntry {
        let name = names[0]
        let standard = ProcessingOptions()[keyPath: field]
        return OptionEntry(
            names: names, changesResult: true, sample: [sample],
            apply: { args, o, _ throws(ImageServerError) in
                o[keyPath: field] = try OptionsParser.single(name, args, parse)
            },
            write: { o in o[keyPath: field] == standard ? nil : "\(name):\(spell(o[keyPath: field]))" })
    }

    /// An integer option stored at `field`, read by `parse`.
    static func integer(
        _ names: [String], _ field: any WritableKeyPath<ProcessingOptions, Int> & Sendable, sample: String,
        parse: @escaping @Sendable (_ option: String, _ value: String) throws(ImageServerError) -> Int
    ) -> OptionEntry {
        value(names, field, sample: sample, parse: parse) { String($0) }
    }

    /// A number option stored at `field`, read by `parse` and written in its shortest form.
    static func number(
        _ names: [String], _ field: any WritableKeyPath<ProcessingOptions, Double> & Sendable, sample: String,
        parse: @escaping @Sendable (_ option: String, _ value: String) throws(ImageServerError) -> Double
    ) -> OptionEntry {
        value(names, field, sample: sample, parse: parse, spell: ProcessingOptions.number)
    }
}
