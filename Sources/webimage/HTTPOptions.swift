import ArgumentParser
import Foundation
import WebImageServer

/// `webimage serve`'s HTTP options (``Settings``' HTTP rows): the `Server` header, the health check and the
/// validators, as imgproxy's variables set them.
struct HTTPOptions: ParsableArguments {
    @Option(help: "The Server header of every response (default: imgproxy; IMGPROXY_SERVER_NAME).")
    var serverName: String?
    @Option(help: "The body of /health (default: imgproxy is running; IMGPROXY_HEALTH_CHECK_MESSAGE).")
    var healthCheckMessage: String?
    @Option(help: "A second path answering as /health, such as /ping (IMGPROXY_HEALTH_CHECK_PATH).")
    var healthCheckPath: String?
    @Flag(
        inversion: .prefixedNo,
        help: "Send the origin's ETag and pass If-None-Match to it (default: on; IMGPROXY_USE_ETAG).")
    var useEtag: Bool?
    @Option(help: "Wrap every ETag with this value, to invalidate the ETags sent so far (IMGPROXY_ETAG_BUSTER).")
    var etagBuster: String?
    @Flag(
        inversion: .prefixedNo,
        help:
            "Send the origin's Last-Modified and pass If-Modified-Since to it (default: on; IMGPROXY_USE_LAST_MODIFIED)."
    )
    var useLastModified: Bool?
    @Option(
        help: "Treat every result as modified at least at this RFC 3339 time (IMGPROXY_LAST_MODIFIED_BUSTER).")
    var lastModifiedBuster: String?
    @Flag(
        help: "Answer images of http(s) sources with Link: <source>; rel=\"canonical\" (IMGPROXY_SET_CANONICAL_HEADER)."
    )
    var setCanonicalHeader = false
    @Flag(
        help:
            "Answer images with X-Origin-Width, -Height, -Content-Length, X-Result-Width, -Height (IMGPROXY_ENABLE_DEBUG_HEADERS)."
    )
    var enableDebugHeaders = false
    @Flag(
        help:
            "Default dpr and width from Sec-CH-DPR/DPR and Sec-CH-Width/Width (IMGPROXY_ENABLE_CLIENT_HINTS)."
    )
    var enableClientHints = false
    @Flag(
        help:
            "Answer with the origin's Cache-Control and Expires when it sent them (IMGPROXY_CACHE_CONTROL_PASSTHROUGH)."
    )
    var cacheControlPassthrough = false

    /// Sets the configuration's HTTP settings; throws for a variable or flag that does not parse.
    func apply(to configuration: inout ImageServerConfiguration) throws {
        var http = configuration.http
        http.serverName = try Settings.serverName.resolve(serverName) ?? http.serverName
        http.healthCheckMessage = try Settings.healthCheckMessage.resolve(healthCheckMessage) ?? http.healthCheckMessage
        http.healthCheckPath = try Settings.healthCheckPath.resolve(healthCheckPath) ?? http.healthCheckPath
        http.usesETag = try Settings.useETag.resolve(useEtag) ?? http.usesETag
        http.etagBuster = try Settings.etagBuster.resolve(etagBuster) ?? http.etagBuster
        http.usesLastModified = try Settings.useLastModified.resolve(useLastModified) ?? http.usesLastModified
        http.lastModifiedBuster = try Settings.lastModifiedBuster.resolve(parsing: lastModifiedBuster)
        http.setsCanonicalHeader = try Settings.setCanonicalHeader.resolve(switch: setCanonicalHeader)
        http.sendsDebugHeaders = try Settings.enableDebugHeaders.resolve(switch: enableDebugHeaders)
        http.enablesClientHints = try Settings.enableClientHints.resolve(switch: enableClientHints)
        http.passesCacheControl = try Settings.cacheControlPassthrough.resolve(switch: cacheControlPassthrough)
        configuration.http = http
    }
}
