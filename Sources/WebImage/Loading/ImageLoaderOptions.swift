import Foundation

/// Per-request settings of a load. Loaders ignore what does not apply to them (a file has no redirects).
public struct ImageLoaderOptions: Sendable {
    /// The package name and version sent as `User-Agent` unless ``userAgent`` says otherwise.
    public static let defaultUserAgent = "swift-web-image/0.1.0"

    /// How long the transfer may take once it has left the queue (waiting for a slot does not count); default 15 s.
    public var timeout: Duration = .seconds(15)
    /// The `User-Agent` header; `nil` sends none.
    public var userAgent: String? = ImageLoaderOptions.defaultUserAgent
    /// Changes the HTTP request before it is sent (headers, authorization).
    public var requestModifier: ImageRequestModifier = .identity
    /// Accepts or refuses the response; the default wants 2xx and image bytes.
    public var responseValidator: ImageResponseValidator = .default
    /// Transforms the bytes of a successful (2xx) download before validation; `nil` leaves them alone.
    public var decryptor: ImageDecryptor?
    /// The largest body accepted, in bytes, enforced while the body streams in; default 50 MiB.
    public var maxBodySize: Int = 50 * 1024 * 1024
    /// How many redirects are followed before failing with ``WebImageError/Code/tooManyRedirects``; default 5.
    public var redirectLimit: Int = 5
    /// Accept any TLS certificate. For tests against self-signed servers only; never in production.
    public var allowsInvalidCertificates = false
    /// Sent as `If-None-Match` (the ETag of cached bytes); a 304 answer comes back as
    /// ``ImageResponse/isNotModified``.
    public var ifNoneMatch: String?
    /// Sent as `If-Modified-Since` (the `Last-Modified` of cached bytes).
    public var ifModifiedSince: String?

    /// The defaults.
    public init() {}

    /// The defaults.
    public static let `default` = ImageLoaderOptions()

    /// The request for `url` before the ``requestModifier``: `User-Agent` and conditional headers.
    func baseRequest(for url: URL) -> ImageHTTPRequest {
        var headers = ImageHTTPHeaders()
        if let userAgent { headers["User-Agent"] = userAgent }
        if let ifNoneMatch { headers["If-None-Match"] = ifNoneMatch }
        if let ifModifiedSince { headers["If-Modified-Since"] = ifModifiedSince }
        return ImageHTTPRequest(url: url, headers: headers)
    }

    /// Applies the decryptor (to a successful response), then the validator, for one caller.
    func finish(_ response: ImageResponse) throws(WebImageError) -> ImageResponse {
        var result = response
        let succeeded = response.httpStatus.map { (200..<300).contains($0) } ?? true
        if let decryptor, succeeded {
            result.data = try decryptor.decrypt(response.data, response: response)
        }
        try responseValidator.validate(result)
        return result
    }
}
