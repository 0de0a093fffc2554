/// The image answered when a source cannot be downloaded or is not an image the server reads (imgproxy's
/// `IMGPROXY_FALLBACK_IMAGE_DATA`, `_PATH`, `_URL`, `_HTTP_CODE` and `_TTL`), processed with the request's options.
/// A source that fails to decode or is over a limit answers its error, as in imgproxy.
public struct FallbackImageConfiguration: Sendable, Hashable {
    /// Where the image comes from: bytes, a file (both read when the server is built) or an http(s) URL (fetched as a
    /// source by ``ImageServer/prepare()``, under the source limits and address rules).
    public var source: WatermarkSource
    /// The status of a fallback response; 0 answers the failure's own status (404, 422, 502…). Default 200, as
    /// imgproxy's.
    public var statusCode = 200
    /// `Cache-Control: max-age` of a fallback response in seconds, as imgproxy's `IMGPROXY_FALLBACK_IMAGE_TTL` (longer
    /// than the TTL too; `expires` shortens it). 0 (the default): no `Cache-Control` on an error status, the TTL on
    /// another.
    public var ttl = 0

    /// A fallback image read from `source`.
    public init(source: WatermarkSource, statusCode: Int = 200, ttl: Int = 0) {
        self.source = source
        self.statusCode = statusCode
        self.ttl = ttl
    }

    /// Throws unless the status is 0 or 100 to 599, the TTL 0 or more, and a URL source http(s).
    func validate() throws(ImageServerConfigurationError) {
        guard statusCode == 0 || (100...599).contains(statusCode) else {
            throw ImageServerConfigurationError("fallback-image-http-code", "must be 0 or between 100 and 599")
        }
        try ImageServerConfigurationError.check(ttl, in: 0...Int.max, "fallback-image-ttl", "must be 0 or more")
        if case .url(let url) = source.kind, !["http", "https"].contains(url.scheme?.lowercased() ?? "") {
            throw ImageServerConfigurationError("fallback-image-url", "must be an http(s) URL")
        }
    }
}
