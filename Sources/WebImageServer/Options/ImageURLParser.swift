import Foundation
import WebImage

/// What an imgproxy-format path asks for: the options, the source URL and the format named by its extension.
public struct ImageURLRequest: Sendable, Hashable {
    /// The processing options, the extension's format included.
    public var options: ProcessingOptions
    /// The source URL as given (after percent- or base64-decoding).
    public var source: String
}

/// Turns `/{signature}/{options}/plain/{url}[@ext]` or `/{signature}/{options}/{base64 url}[.ext]` into an
/// ``ImageURLRequest``, checking the signature first: a bad signature does no other work.
public struct ImageURLParser: Sendable {
    /// The signer; `nil` accepts any signature.
    public let signer: URLSigner?
    /// How the source part becomes the source URL (base URL, replacements, a base64 source's file name).
    public let sourceURLs: SourceURLRules
    /// What separates an option's name and arguments (imgproxy's `IMGPROXY_ARGUMENTS_SEPARATOR`); `:` by default.
    public let argumentsSeparator: String
    let options: OptionsParser

    /// A parser with an optional signer and presets, the options every request starts from, the rules of which
    /// options URLs may use and how sources are rewritten.
    public init(
        signer: URLSigner?, presets: Presets = Presets(), defaults: ProcessingOptions = ProcessingOptions(),
        rules: OptionRules = OptionRules(), sourceURLs: SourceURLRules = SourceURLRules(),
        argumentsSeparator: String = ":"
    ) {
        self.signer = signer
        self.sourceURLs = sourceURLs
        self.argumentsSeparator = argumentsSeparator.isEmpty ? ":" : argumentsSeparator
        options = OptionsParser(presets: presets, rules: rules, defaults: defaults)
    }

    /// Parses `path` (percent-encoded, without the query string, starting with `/`) at Unix time `now`.
    ///
    /// - Throws: ``ImageServerError``: 403 for a bad signature, 404 for a malformed path, option or argument.
    public func parse(_ path: String, now: Int) throws(ImageServerError) -> ImageURLRequest {
        try parse(path, now: now, hints: .none)
    }

    /// Parses `path` at Unix time `now` as ``parse(_:now:)`` does, with the `dpr` and `width` of the client's
    /// `hints` as defaults that the URL's options and presets override (imgproxy's client hints).
    public func parse(_ path: String, now: Int, hints: ClientHints) throws(ImageServerError) -> ImageURLRequest {
        let parts = try Self.verifiedSegments(of: path, signer: signer)
        var processing: ProcessingOptions
        let urlParts: [String]
        if options.rules.onlyPresets {
            let names = parts[0].components(separatedBy: argumentsSeparator)
            processing = try options.parse(presets: names, now: now, hints: hints)
            urlParts = Array(parts.dropFirst())
        } else {
            if ResizingType(rawValue: parts[0]) != nil {
                throw .invalid("the deprecated basic URL format is not supported")
            }
            let (urlOptions, remaining) = URLOption.split(parts, separator: argumentsSeparator)
            try URLOption.checkCanonical(urlOptions, separator: argumentsSeparator)
            processing = try options.parse(urlOptions, now: now, hints: hints)
            urlParts = remaining
        }
        let (source, ext) = try Self.decodeSource(urlParts, rules: sourceURLs)
        // A raw request streams the source as it is: imgproxy ignores the extension then.
        if let ext, !processing.raw { processing.format = try OutputFormat.named(ext, option: "extension") }
        return ImageURLRequest(options: processing, source: source)
    }

    /// The source URL (rewritten by `rules`) and the extension, from the path segments after the options.
    static func decodeSource(
        _ parts: [String], rules: SourceURLRules = SourceURLRules()
    ) throws(ImageServerError) -> (String, String?) {
        guard !parts.isEmpty else { throw .invalid("image URL is empty") }
        if parts[0] == "plain" && parts.count > 1 {
            let joined = parts.dropFirst().joined(separator: "/")
            let halves = joined.split(separator: "@", omittingEmptySubsequences: false)
            guard !halves[0].isEmpty else { throw .invalid("image URL is empty") }
            guard halves.count <= 2 else { throw .invalid("multiple formats are specified") }
            guard let source = String(halves[0]).removingPercentEncoding else {
                throw .invalid("invalid URL encoding")
            }
            return (rules.apply(to: source), halves.count == 2 && !halves[1].isEmpty ? String(halves[1]) : nil)
        }
        let joined = (parts.count > 1 && rules.base64IncludesFilename ? parts.dropLast() : parts[...]).joined()
        let halves = joined.split(separator: ".", omittingEmptySubsequences: false)
        guard !halves[0].isEmpty else { throw .invalid("image URL is empty") }
        guard halves.count <= 2 else { throw .invalid("multiple formats are specified") }
        guard let data = OptionArguments.base64URL(String(halves[0])), let source = String(data: data, encoding: .utf8)
        else {
            throw .invalid("invalid URL encoding")
        }
        // `=` alone is valid base64 for no bytes at all (found by fuzz-url: its canonical path did not read back).
        guard !source.isEmpty else { throw .invalid("image URL is empty") }
        return (rules.apply(to: source), halves.count == 2 && !halves[1].isEmpty ? String(halves[1]) : nil)
    }

    /// The segments after the signature of `path` (image and `/info` URLs alike), once the signature is checked:
    /// against `signer` when there is one, else it must not look like an option (as imgproxy, so an unsigned server
    /// refuses a path that forgot the signature segment).
    ///
    /// - Throws: ``ImageServerError``: 403 for a bad or missing signature, 404 for a path without segments.
    static func verifiedSegments(of path: String, signer: URLSigner?) throws(ImageServerError) -> [String] {
        let trimmed = path.hasPrefix("/") ? String(path.dropFirst()) : path
        guard let slash = trimmed.firstIndex(of: "/") else { throw .invalid("invalid path") }
        let signature = String(trimmed[..<slash])
        let rest = redenormalize(String(trimmed[trimmed.index(after: slash)...]))
        guard !signature.isEmpty, !rest.isEmpty else { throw .invalid("invalid path") }
        if let signer {
            guard signer.verify(signature, for: "/" + rest) else {
                throw ImageServerError(status: 403, "invalid signature")
            }
        } else if signature.contains(":") {
            throw ImageServerError(status: 403, "malformed signature: the path must start with a signature")
        }
        return rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    }

    /// Undoes what proxies do to paths: `%3A` in the options back to `:`, `scheme:/host` back to `scheme://host`.
    static func redenormalize(_ path: String) -> String {
        var options = ""
        var plain: String?
        if path.hasPrefix("plain/") {
            plain = String(path.dropFirst(6))
        } else if let range = path.range(of: "/plain/") {
            options = String(path[..<range.lowerBound])
            plain = String(path[range.upperBound...])
        } else {
            options = path
        }
        options = options.replacingOccurrences(of: "%3A", with: ":")
        guard var url = plain else { return options.hasPrefix("/") ? String(options.dropFirst()) : options }
        if let colon = url.firstIndex(of: ":"), !url[..<colon].contains(where: { $0 == " " || $0 == "/" }),
            !url[..<colon].isEmpty, url[colon...].hasPrefix(":/"), !url[colon...].hasPrefix("://")
        {
            let scheme = url[..<colon]
            let after = url[url.index(colon, offsetBy: 2)...]
            url = String(scheme) + (scheme == "local" ? ":///" : "://") + String(after)
        }
        let joined = options + "/plain/" + url
        return joined.hasPrefix("/") ? String(joined.dropFirst()) : joined
    }
}
