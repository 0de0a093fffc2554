import ArgumentParser

/// One setting of `webimage serve`: its flag and the environment variables that stand in for it when the flag is not
/// given, in order of precedence: `WEBIMAGE_<FLAG>` first, then imgproxy's own variables (`IMGPROXY_TTL`), each
/// read in its own syntax. The table of them all is ``Settings``.
struct Setting<Value>: Sendable {
    /// One environment variable and how its value parses.
    struct Variable: Sendable {
        let name: String
        let parser: ValueParser<Value>
        /// Whether it is imgproxy's (or the AWS SDK's, which imgproxy reads) rather than a `WEBIMAGE_` one.
        var isImgproxy: Bool { !name.hasPrefix("WEBIMAGE_") }
    }

    /// The flag without its dashes (`max-src-file-size`); `nil` for a variable without a flag (`IMGPROXY_USE_S3`).
    let flag: String?
    /// The variables, the first set one wins.
    let variables: [Variable]

    /// A setting read from `--flag`, `WEBIMAGE_<FLAG>` (or `WEBIMAGE_<webimage>`) with `parser`, then from the
    /// `imgproxy` variables with `imgproxyParser` (default: `parser`).
    init(
        _ flag: String?, _ parser: ValueParser<Value>, webimage: String? = nil, imgproxy: [String] = [],
        imgproxyParser: ValueParser<Value>? = nil
    ) {
        self.flag = flag
        let own = webimage ?? flag.map { $0.uppercased().replacingOccurrences(of: "-", with: "_") }
        variables =
            (own.map { [Variable(name: "WEBIMAGE_" + $0, parser: parser)] } ?? [])
            + imgproxy.map { Variable(name: $0, parser: imgproxyParser ?? parser) }
    }

    /// `flag` when given, else the value of the first variable set (and not empty) in the environment, skipping
    /// imgproxy's unless `imgproxy`; `nil` when none is.
    ///
    /// - Throws: `ValidationError` naming the variable whose value does not parse.
    func resolve(_ flag: Value?, imgproxy: Bool = true) throws -> Value? {
        if let flag { return flag }
        for variable in variables where imgproxy || !variable.isImgproxy {
            guard let text = Env.value(variable.name) else { continue }
            return try variable.parse(text)
        }
        return nil
    }

    /// A flag given as text (`--log-level warn`) parsed as its `WEBIMAGE_` variable is, else the environment's value.
    func resolve(parsing flag: String?, imgproxy: Bool = true) throws -> Value? {
        guard let flag else { return try resolve(nil, imgproxy: imgproxy) }
        guard let parser = variables.first?.parser, let value = parser.parse(flag) else {
            throw ValidationError("--\(self.flag ?? ""): '\(flag)' must be \(variables.first?.parser.expected ?? "")")
        }
        return value
    }

    /// A switch that can only turn the setting on (`--no-cache`): on when given, else the environment's value, else
    /// off.
    func resolve(switch flag: Bool) throws -> Bool where Value == Bool { try resolve(flag ? true : nil) ?? false }

    /// A repeatable flag's values when given, else the list of the first variable set.
    func resolve<Element>(_ flag: [Element]) throws -> [Element] where Value == [Element] {
        try resolve(flag.isEmpty ? nil : flag) ?? []
    }
}

extension Setting.Variable {
    /// `text` parsed, or a `ValidationError` naming the variable and what it must hold.
    func parse(_ text: String) throws -> Value {
        guard let value = parser.parse(text) else {
            throw ValidationError("\(name)=\(text): must be \(parser.expected)")
        }
        return value
    }
}

/// What the table needs of a setting whatever its type: its variables, and a check of those that are set.
protocol SettingVariables: Sendable {
    /// The names of the environment variables read.
    var names: [String] { get }
    /// Throws for the first variable set whose value does not parse.
    func check() throws
}

extension Setting: SettingVariables {
    var names: [String] { variables.map(\.name) }

    func check() throws {
        for variable in variables {
            if let text = Env.value(variable.name) { _ = try variable.parse(text) }
        }
    }
}
