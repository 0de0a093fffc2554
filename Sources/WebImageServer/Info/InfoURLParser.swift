import Foundation

/// What an `/info` path asks for.
public struct InfoURLRequest: Sendable, Hashable {
    /// The info options, presets applied.
    public var options: InfoOptions
    /// The source URL as given (after percent- or base64-decoding).
    public var source: String
}

/// Turns the part of `/info/{signature}/{info options}/plain/{url}` (or `/{base64 url}`) after `/info` into an
/// ``InfoURLRequest``, checking the signature first, exactly as image URLs are signed: over the path after the
/// signature.
public struct InfoURLParser: Sendable {
    /// The signer; `nil` accepts any signature.
    public let signer: URLSigner?
    /// The allowed options, presets and security options.
    public let configuration: InfoConfiguration
    /// How the source part becomes the source URL, as for image URLs.
    public let sourceURLs: SourceURLRules
    /// What separates an option's name and arguments, as for image URLs.
    public let argumentsSeparator: String

    /// A parser with an optional signer, the `/info` settings, the rewriting of sources and the arguments separator.
    public init(
        signer: URLSigner?, configuration: InfoConfiguration, sourceURLs: SourceURLRules = SourceURLRules(),
        argumentsSeparator: String = ":"
    ) {
        self.signer = signer
        self.configuration = configuration
        self.sourceURLs = sourceURLs
        self.argumentsSeparator = argumentsSeparator.isEmpty ? ":" : argumentsSeparator
    }

    /// Parses `path` (percent-encoded, starting with `/`, without `/info`) at Unix time `now`.
    ///
    /// - Throws: ``ImageServerError``: 403 for a bad signature or a security option not allowed, 404 for a malformed
    ///   path, an unknown or not allowed option or a bad argument.
    public func parse(_ path: String, now: Int) throws(ImageServerError) -> InfoURLRequest {
        let parts = try ImageURLParser.verifiedSegments(of: path, signer: signer)
        let context = InfoParsingContext(now: now, allowsSecurityOptions: configuration.allowsSecurityOptions)
        var options = InfoOptions()
        if configuration.presets.table["default"] != nil {
            try applyPresets(["default"], to: &options, used: [], context: context)
        }
        let sourceParts: [String]
        if configuration.onlyPresets {
            // As imgproxy: the first segment is the preset names, the rest the source.
            let names = parts[0].components(separatedBy: argumentsSeparator)
            try applyPresets(names, to: &options, used: [], context: context)
            sourceParts = Array(parts.dropFirst())
        } else {
            let (urlOptions, rest) = URLOption.split(parts, separator: argumentsSeparator)
            for option in urlOptions {
                if !configuration.allowedOptions.isEmpty, !configuration.allowedOptions.contains(option.name) {
                    throw .invalid("forbidden info option \(option.name.prefix(64))")
                }
                try apply(option, to: &options, used: [], context: context)
            }
            sourceParts = rest
        }
        let (source, _) = try ImageURLParser.decodeSource(sourceParts, rules: sourceURLs)
        return InfoURLRequest(options: options, source: source)
    }

    /// Checks every preset's options, as the server does at start.
    static func validate(_ configuration: InfoConfiguration) throws(ImageServerError) {
        let parser = InfoURLParser(signer: nil, configuration: configuration)
        let context = InfoParsingContext(now: 0, allowsSecurityOptions: true)
        for name in configuration.presets.names {
            var options = InfoOptions()
            do {
                try parser.applyPresets([name], to: &options, used: [], context: context)
            } catch {
                throw .invalid("error in info preset \(name): \(error.message)")
            }
        }
    }

    private func apply(
        _ option: URLOption, to options: inout InfoOptions, used: [String], context: InfoParsingContext
    ) throws(ImageServerError) {
        if option.name == "preset" || option.name == "pr" {
            try applyPresets(option.args, to: &options, used: used, context: context)
        } else if let apply = InfoOptionTable.byName[option.name] {
            try apply(option.args, &options, context)
        } else {
            throw .invalid("unknown info option \(option.name.prefix(64))")
        }
    }

    private func applyPresets(
        _ names: [String], to options: inout InfoOptions, used: [String], context: InfoParsingContext
    ) throws(ImageServerError) {
        for name in names {
            guard let preset = configuration.presets.table[name] else {
                throw .invalid("unknown preset \(name.prefix(64))")
            }
            if used.contains(name) { continue }
            options.usedPresets.append(name)
            for option in preset { try apply(option, to: &options, used: used + [name], context: context) }
        }
    }
}
