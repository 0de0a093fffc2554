import ArgumentParser
import Foundation
import WebImageServer

/// `webimage serve`'s rules for the source part of URLs, and the deprecated variables' check.
struct URLOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Put in front of every source that does not start with it (IMGPROXY_BASE_URL).", valueName: "URL"))
    var baseUrl: String?
    @Option(
        help: ArgumentHelp(
            "Rewrite sources: PATTERN=REPLACEMENT;..., * matching anything but / and $1 what it matched "
                + "(IMGPROXY_URL_REPLACEMENTS).", valueName: "RULES"))
    var urlReplacements: String?
    @Flag(help: "A base64 source's last segment is a file name, ignored (IMGPROXY_BASE64_URL_INCLUDES_FILENAME).")
    var base64UrlIncludesFilename = false
    @Option(
        help: ArgumentHelp(
            "Where the query starts in local:// and s3:// sources; empty: nowhere (default: ?; "
                + "IMGPROXY_SOURCE_URL_QUERY_SEPARATOR).", valueName: "TEXT"))
    var sourceUrlQuerySeparator: String?
    @Option(
        help: ArgumentHelp(
            "What separates an option's name and arguments in URLs and presets (default: :; "
                + "IMGPROXY_ARGUMENTS_SEPARATOR).", valueName: "TEXT"))
    var argumentsSeparator: String?
    @Flag(help: "Refuse to start when an imgproxy 3 variable name is set (IMGPROXY_FAIL_ON_DEPRECATION).")
    var failOnDeprecation = false

    /// The arguments separator of the flag or the environment, `:` by default.
    func resolvedArgumentsSeparator() throws -> String {
        try Settings.argumentsSeparator.resolve(argumentsSeparator) ?? ":"
    }

    /// Sets `configuration.sourceURLs` and the arguments separator; names the deprecated variables set, or throws for
    /// them with `--fail-on-deprecation`.
    func apply(to configuration: inout ImageServerConfiguration) throws {
        var rules = SourceURLRules()
        rules.baseURL = try Settings.baseURL.resolve(baseUrl) ?? ""
        rules.replacements = try Settings.urlReplacements.resolve(parsing: urlReplacements) ?? []
        rules.base64IncludesFilename = try Settings.base64URLIncludesFilename.resolve(
            switch: base64UrlIncludesFilename)
        configuration.sourceURLs = rules
        configuration.argumentsSeparator = try resolvedArgumentsSeparator()
        // imgproxy reads its separator even when empty (no separator), unlike its other variables.
        let environment = ProcessInfo.processInfo.environment
        if let separator = sourceUrlQuerySeparator ?? Env.value("WEBIMAGE_SOURCE_URL_QUERY_SEPARATOR")
            ?? environment[Settings.sourceURLQuerySeparatorName]
        {
            configuration.sourceQuerySeparator = separator
        }
        let deprecated = Settings.deprecatedNames.filter { Env.value($0.0) != nil }
        guard !deprecated.isEmpty else { return }
        let message = deprecated.map { "\($0.0) is deprecated, use \($0.1) instead" }.joined(separator: "; ")
        if try Settings.failOnDeprecation.resolve(switch: failOnDeprecation) {
            throw ValidationError(message + " (IMGPROXY_FAIL_ON_DEPRECATION)")
        }
        configuration.logger.warning("\(message)")
    }
}
