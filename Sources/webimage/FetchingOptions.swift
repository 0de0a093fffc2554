import ArgumentParser
import Foundation
import WebImageServer

/// `webimage serve`'s fetching settings: what the server sends to origins and how it connects to them.
struct FetchingOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The User-Agent sent to origins; %current_version becomes the server's version (default: "
                + "\(FetchSettings.defaultUserAgent); IMGPROXY_USER_AGENT).", valueName: "TEXT"))
    var userAgent: String?
    @Option(
        help: ArgumentHelp(
            "Seconds an idle connection to an origin is kept; 0 closes each after its download (default: 90; "
                + "IMGPROXY_CLIENT_KEEP_ALIVE_TIMEOUT)."))
    var clientKeepAliveTimeout: Double?
    @Flag(help: "Accept any certificate from HTTPS origins (default: off; IMGPROXY_IGNORE_SSL_VERIFICATION).")
    var ignoreSslVerification = false
    @Flag(
        help: ArgumentHelp(
            "Pass the client's cookies for the source's host to the origin; such answers are never cached "
                + "(IMGPROXY_COOKIE_PASSTHROUGH)."))
    var cookiePassthrough = false
    @Flag(help: "With --cookie-passthrough, pass every cookie to any origin (IMGPROXY_COOKIE_PASSTHROUGH_ALL).")
    var cookiePassthroughAll = false
    @Option(
        help: ArgumentHelp(
            "The URL the client's cookies belong to (default: the request's own; IMGPROXY_COOKIE_BASE_URL).",
            valueName: "URL"))
    var cookieBaseUrl: String?

    /// Sets `configuration.fetching`.
    func apply(to configuration: inout ImageServerConfiguration) throws {
        var fetching = configuration.fetching
        if let agent = try Settings.userAgent.resolve(userAgent) { fetching.userAgent = agent }
        if let seconds = try Settings.clientKeepAliveTimeout.resolve(clientKeepAliveTimeout) {
            guard seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
                throw ValidationError("--client-keep-alive-timeout must be between 0 and 86400 seconds")
            }
            fetching.clientKeepAlive = ServeCommand.duration(seconds)
        }
        fetching.ignoresCertificateErrors = try Settings.ignoreSSLVerification.resolve(switch: ignoreSslVerification)
        if try Settings.cookiePassthrough.resolve(switch: cookiePassthrough) {
            var baseURL: URL?
            if let text = try Settings.cookieBaseURL.resolve(cookieBaseUrl) {
                // As imgproxy, a URL that is not http(s) with a host is taken, and matches no source.
                guard let url = URL(string: text) else {
                    throw ValidationError("--cookie-base-url: '\(text)' is not a URL")
                }
                baseURL = url
            }
            fetching.cookies = CookiePassthrough(
                passesAll: try Settings.cookiePassthroughAll.resolve(switch: cookiePassthroughAll), baseURL: baseURL)
        }
        configuration.fetching = fetching
    }
}
