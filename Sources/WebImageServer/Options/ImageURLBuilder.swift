import Foundation

/// Builds the canonical, signed URL of a result, as `webimage url` prints it: a cluster behind a URL-hashing load
/// balancer then processes and caches each result on one node.
///
/// ```swift
/// let builder = ImageURLBuilder(signer: URLSigner(hexKey: key, hexSalt: salt), base: "https://img.example.com")
/// var options = ProcessingOptions()
/// options.resizingType = .fill
/// options.width = 300
/// options.height = 200
/// let url = builder.url(options, source: "https://example.com/photo.jpg")
/// // https://img.example.com/<signature>/resizing_type:fill/width:300/height:200/aHR0cHM6Ly9...
/// ```
public struct ImageURLBuilder: Sendable {
    /// The signer; `nil` writes `insecure` where the signature goes (for a server started without a key).
    public let signer: URLSigner?
    /// What goes before the path, such as `https://img.example.com`; empty for a path alone.
    public let base: String
    /// What separates an option's name and arguments, the server's (imgproxy's `IMGPROXY_ARGUMENTS_SEPARATOR`).
    public let argumentsSeparator: String

    /// A builder that signs with `signer`, prefixes `base` (a trailing `/` is dropped) and writes options with
    /// `argumentsSeparator`.
    public init(signer: URLSigner?, base: String = "", argumentsSeparator: String = ":") {
        self.signer = signer
        self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
        self.argumentsSeparator = argumentsSeparator.isEmpty ? ":" : argumentsSeparator
    }

    /// The canonical URL of `options` applied to `source`.
    public func url(_ options: ProcessingOptions, source: String) -> String {
        let path = options.canonicalPath(source: source, argumentsSeparator: argumentsSeparator)
        return base + "/" + (signer?.signature(for: path) ?? "insecure") + path
    }

    /// The canonical URL of `source` processed by `options`, written in any spelling the server accepts
    /// (`rs:fill:300:200/q:80`, `resize:fill:300:200/quality:80`, presets by name).
    ///
    /// - Throws: ``ImageServerError`` (404) naming an unknown option, argument, preset or format.
    public func url(
        options: String, source: String, presets: Presets = Presets(), now: Int = Int(Date().timeIntervalSince1970)
    ) throws(ImageServerError) -> String {
        let segments = options.split(separator: "/").map(String.init)
        let (parsed, rest) = URLOption.split(segments, separator: argumentsSeparator)
        guard rest.isEmpty else { throw .invalid("'\(rest[0].prefix(64))' is not an option (NAME:ARGS)") }
        try URLOption.checkCanonical(parsed, separator: argumentsSeparator)
        return url(try OptionsParser(presets: presets).parse(parsed, now: now), source: source)
    }
}
