import Foundation
import WebImage

/// How the server fetches sources over HTTP, as imgproxy's fetcher does: the `User-Agent` it sends, how long it keeps
/// idle connections to origins, whether it checks their certificates, and which cookies of the client it passes on.
public struct FetchSettings: Sendable {
    /// The version `%current_version` stands for in ``userAgent``: this package's.
    public static let currentVersion = "0.1.0"

    /// imgproxy's default `User-Agent`, `imgproxy/%current_version`.
    public static let defaultUserAgent = "imgproxy/%current_version"

    /// The `User-Agent` sent to origins (imgproxy's `IMGPROXY_USER_AGENT`); `%current_version` in it is replaced
    /// by ``currentVersion``, as imgproxy replaces it by its own. Default ``defaultUserAgent``.
    public var userAgent = FetchSettings.defaultUserAgent
    /// How long an idle connection to an origin is kept for the next download (imgproxy's
    /// `IMGPROXY_CLIENT_KEEP_ALIVE_TIMEOUT`); zero closes each connection after its download. Default 90 s.
    public var clientKeepAlive: Duration = .seconds(90)
    /// Accept any certificate from HTTPS origins (imgproxy's `IMGPROXY_IGNORE_SSL_VERIFICATION`); default off.
    public var ignoresCertificateErrors = false
    /// The client's cookies passed to origins (imgproxy's `IMGPROXY_COOKIE_PASSTHROUGH`); `nil` (the default) passes
    /// none.
    public var cookies: CookiePassthrough?

    /// imgproxy's defaults.
    public init() {}

    /// ``userAgent`` with `%current_version` replaced.
    var resolvedUserAgent: String { userAgent.replacingOccurrences(of: "%current_version", with: Self.currentVersion) }

    /// Throws for an empty ``userAgent`` or one that is not a header value, or a keep-alive out of 0 s to a day.
    func validate() throws(ImageServerConfigurationError) {
        let headerValue = resolvedUserAgent.unicodeScalars.allSatisfy { $0 == "\t" || (0x20..<0x7F).contains($0.value) }
        guard !userAgent.isEmpty, headerValue else {
            throw ImageServerConfigurationError("user-agent", "must be non-empty printable ASCII")
        }
        try ImageServerConfigurationError.check(
            clientKeepAlive, in: .zero ... .seconds(86_400), "client-keep-alive-timeout",
            "must be between 0 and 86400 seconds")
    }
}
