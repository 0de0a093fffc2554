/// Named option lists (`--preset NAME=OPTIONS`), imgproxy's presets; `default` applies to every request.
public struct Presets: Sendable, Hashable {
    var table: [String: [URLOption]]

    /// No presets.
    public init() { table = [:] }

    /// Parses `NAME=opt:arg/opt:arg` definitions, their arguments separated by `argumentsSeparator` as URLs' are
    /// (imgproxy's `IMGPROXY_ARGUMENTS_SEPARATOR`); blank lines and `#` comments are skipped.
    ///
    /// - Throws: ``ImageServerError`` (status 404 kind) naming the first bad definition, or the first preset whose
    ///   options do not parse.
    public init(definitions: [String], argumentsSeparator: String = ":") throws(ImageServerError) {
        try self.init(unvalidated: definitions, argumentsSeparator: argumentsSeparator)
        // The security options parse here; whether a URL may use them is the server's rule
        // (``ImageServerConfiguration/validate()`` refuses presets that use them when it does not allow them).
        var rules = OptionRules()
        rules.allowsSecurityOptions = true
        let parser = OptionsParser(presets: self, rules: rules)
        for (name, options) in table {
            var processing = ProcessingOptions()
            do {
                try parser.apply(options, to: &processing, usedPresets: [name], now: 0)
            } catch {
                throw .invalid("error in preset \(name): \(error.message)")
            }
        }
    }

    /// Parses the definitions without checking the options (info presets hold info options).
    init(unvalidated definitions: [String], argumentsSeparator: String = ":") throws(ImageServerError) {
        table = [:]
        for definition in definitions {
            let trimmed = definition.trimmingSpaces
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let halves = trimmed.split(separator: "=", omittingEmptySubsequences: false)
            guard halves.count == 2 else { throw .invalid("invalid preset definition: \(trimmed)") }
            let name = String(halves[0]).trimmingSpaces
            let value = String(halves[1]).trimmingSpaces
            guard !name.isEmpty, !value.isEmpty else { throw .invalid("empty preset name or value: \(trimmed)") }
            let (options, rest) = URLOption.split(
                value.split(separator: "/").map(String.init), separator: argumentsSeparator)
            guard rest.isEmpty else { throw .invalid("invalid preset value: \(trimmed)") }
            try URLOption.checkCanonical(options, separator: argumentsSeparator)
            table[name] = options
        }
    }

    /// The preset names.
    public var names: [String] { table.keys.sorted() }

    /// The first preset that uses one of imgproxy's security options, if any.
    var firstUsingSecurityOptions: String? {
        names.first { name in table[name]?.contains { OptionTable.byName[$0.name]?.isSecurity == true } == true }
    }
}

extension String {
    /// Without leading and trailing spaces.
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
