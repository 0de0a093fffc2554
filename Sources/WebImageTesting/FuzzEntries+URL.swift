import Foundation
import WebImageServer

extension FuzzEntries {
    /// The presets the URL entry's parser knows, using every kind of option, a recursive one included; no
    /// `default` preset, which a canonical path (written relative to the options' defaults) cannot undo.
    static let urlPresets = try? Presets(definitions: [
        "p=pr:p/w:5/mb:100/skp:png", "s=msr:0.5/mrd:99999999999/maf:2/c:Infinity",
    ])

    /// ``urlPresets`` written with `~` between arguments, for the inputs that start with 0x02.
    static let urlTildePresets = try? Presets(
        definitions: ["p=pr~p/w~5/mb~100/skp~png", "s=msr~0.5/mrd~99999999999/maf~2/c~Infinity"],
        argumentsSeparator: "~")

    /// The source rewriting of the URL entry's inputs that start with 0x01.
    static let urlSourceRules = {
        var rules = SourceURLRules()
        rules.baseURL = "http://base.example/"
        rules.replacements = SourceURLRules.replacements(parsing: "mys3://*/=https://$1.s3.example/;a*b=x${1}y") ?? []
        rules.base64IncludesFilename = true
        return rules
    }()

    /// The processing options of a URL path (the input as UTF-8) through the server's parser, with the security
    /// options allowed, and every promise the parser makes about what it accepts: the canonical path reads back as
    /// the same options, and the limits the security options set stay within what the server can hold; client hints
    /// made of the input's text stay in range and are written out by the canonical path.
    public static func url(_ data: Data) {
        var rules = OptionRules()
        rules.allowsSecurityOptions = true
        // An input whose first byte is 0x01 is read, without it, with imgproxy's source rewriting on (base URL,
        // replacements, a base64 file name): the same promises hold of the rewritten source.
        // One starting with 0x02 is read, without it, with `~` as the arguments separator.
        let rewrites = data.first == 1
        let separator = data.first == 2 ? "~" : ":"
        let parser = ImageURLParser(
            signer: nil, presets: (separator == "~" ? urlTildePresets : urlPresets) ?? Presets(), rules: rules,
            sourceURLs: rewrites ? urlSourceRules : SourceURLRules(), argumentsSeparator: separator)
        let path = String(decoding: data.dropFirst(rewrites || separator == "~" ? 1 : 0), as: UTF8.self)
        guard let request = try? parser.parse(path.hasPrefix("/") ? path : "/" + path, now: 0) else { return }
        let options = request.options
        let limits = options.security.applied(to: ServerLimits())
        precondition(limits.maxResultDimension >= 0 && limits.maxResultDimension <= 65_535, "result dimension")
        precondition(limits.maxSourceResolution >= 0 && limits.maxAnimationFrames >= 1, "source limits")
        precondition(options.maxBytes >= 0 && options.width >= 0 && options.height >= 0, "negative size")
        precondition(options.cropWidth.isFinite && options.cropHeight.isFinite, "crop not finite")
        let canonical = options.canonicalPath(source: request.source, argumentsSeparator: separator)
        let again = try? parser.parse("/x" + canonical, now: 0)
        precondition(again?.options.cacheIdentity == options.cacheIdentity, "the canonical path reads back otherwise")
        precondition(
            again?.options.canonicalPath(source: request.source, argumentsSeparator: separator) == canonical,
            "the canonical path moves")
        // Client hints read from the input's text (the first option's first argument as the DPR, the last path field as
        // the width): bounded, and written out by the canonical path (so in the key).
        let fields = path.split { $0 == "/" || $0 == ":" }.map(String.init)
        let hints = ClientHints(
            secCHDPR: fields.dropFirst(2).first, dpr: path, secCHWidth: fields.last, width: path)
        precondition(hints.dpr == 0 || (hints.dpr > 0 && hints.dpr <= 8), "client hint DPR out of range")
        precondition(hints.width >= 0 && hints.width <= 1 << 30, "client hint width out of range")
        guard let hinted = try? parser.parse(path.hasPrefix("/") ? path : "/" + path, now: 0, hints: hints) else {
            return
        }
        let written = hinted.options.canonicalPath(source: hinted.source, argumentsSeparator: separator)
        precondition(
            (try? parser.parse("/x" + written, now: 0))?.options.cacheIdentity == hinted.options.cacheIdentity,
            "the canonical path of hinted options reads back otherwise")
    }
}
