import Foundation
import WebImageServer

/// The fetching rows of ``Settings``: imgproxy's `IMGPROXY_USER_AGENT`, `IMGPROXY_CLIENT_KEEP_ALIVE_TIMEOUT` (whole
/// seconds), `IMGPROXY_IGNORE_SSL_VERIFICATION` and the cookie passthrough (`IMGPROXY_COOKIE_PASSTHROUGH`,
/// `IMGPROXY_COOKIE_PASSTHROUGH_ALL`, `IMGPROXY_COOKIE_BASE_URL`).
extension Settings {
    static let userAgent = Setting<String>("user-agent", .text, imgproxy: ["IMGPROXY_USER_AGENT"])
    static let clientKeepAliveTimeout = Setting<Double>(
        "client-keep-alive-timeout", .number, imgproxy: ["IMGPROXY_CLIENT_KEEP_ALIVE_TIMEOUT"],
        imgproxyParser: .seconds)
    static let ignoreSSLVerification = Setting<Bool>(
        "ignore-ssl-verification", .boolean, imgproxy: ["IMGPROXY_IGNORE_SSL_VERIFICATION"])
    static let cookiePassthrough = Setting<Bool>(
        "cookie-passthrough", .boolean, imgproxy: ["IMGPROXY_COOKIE_PASSTHROUGH"])
    static let cookiePassthroughAll = Setting<Bool>(
        "cookie-passthrough-all", .boolean, imgproxy: ["IMGPROXY_COOKIE_PASSTHROUGH_ALL"])
    static let cookieBaseURL = Setting<String>("cookie-base-url", .text, imgproxy: ["IMGPROXY_COOKIE_BASE_URL"])

    /// The fetching settings, for ``all``.
    static let fetching: [any SettingVariables] = [
        userAgent, clientKeepAliveTimeout, ignoreSSLVerification, cookiePassthrough, cookiePassthroughAll,
        cookieBaseURL,
    ]
}
