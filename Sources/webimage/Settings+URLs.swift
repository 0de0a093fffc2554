import Foundation
import WebImageServer

/// The URL rows of ``Settings``: how a URL's source becomes the URL fetched (imgproxy's `IMGPROXY_BASE_URL`,
/// `IMGPROXY_URL_REPLACEMENTS`, `IMGPROXY_BASE64_URL_INCLUDES_FILENAME`, `IMGPROXY_SOURCE_URL_QUERY_SEPARATOR`) and
/// `IMGPROXY_FAIL_ON_DEPRECATION`.
extension Settings {
    static let baseURL = Setting<String>("base-url", .text, imgproxy: ["IMGPROXY_BASE_URL"])
    static let urlReplacements = Setting<[SourceURLRules.Replacement]>(
        "url-replacements", .urlReplacements, imgproxy: ["IMGPROXY_URL_REPLACEMENTS"])
    static let base64URLIncludesFilename = Setting<Bool>(
        "base64-url-includes-filename", .boolean, imgproxy: ["IMGPROXY_BASE64_URL_INCLUDES_FILENAME"])
    static let sourceURLQuerySeparator = Setting<String>(
        "source-url-query-separator", .text, imgproxy: [sourceURLQuerySeparatorName])
    static let argumentsSeparator = Setting<String>(
        "arguments-separator", .text, imgproxy: ["IMGPROXY_ARGUMENTS_SEPARATOR"])
    static let failOnDeprecation = Setting<Bool>(
        "fail-on-deprecation", .boolean, imgproxy: ["IMGPROXY_FAIL_ON_DEPRECATION"])

    /// imgproxy's variable for the query separator, whose empty value means "none" (imgproxy reads it even when
    /// empty).
    static let sourceURLQuerySeparatorName = "IMGPROXY_SOURCE_URL_QUERY_SEPARATOR"

    /// imgproxy 3's names that `webimage serve` still reads for imgproxy 4's, each with the name to use instead.
    static let deprecatedNames = [
        ("IMGPROXY_WRITE_TIMEOUT", "IMGPROXY_TIMEOUT"), ("IMGPROXY_CONCURRENCY", "IMGPROXY_WORKERS"),
        ("IMGPROXY_ENABLE_WEBP_DETECTION", "IMGPROXY_AUTO_WEBP"),
        ("IMGPROXY_ENABLE_AVIF_DETECTION", "IMGPROXY_AUTO_AVIF"),
    ]

    /// The URL settings, for ``all``.
    static let urls: [any SettingVariables] = [
        baseURL, urlReplacements, base64URLIncludesFilename, sourceURLQuerySeparator, failOnDeprecation,
        argumentsSeparator,
    ]
}

extension ValueParser<[SourceURLRules.Replacement]> {
    /// imgproxy's `PATTERN=REPLACEMENT;PATTERN=REPLACEMENT`.
    static var urlReplacements: Self {
        Self(expected: "PATTERN=REPLACEMENT pairs separated by ;") { SourceURLRules.replacements(parsing: $0) }
    }
}
