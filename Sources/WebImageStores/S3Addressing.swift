import Foundation

/// How a bucket is named in a request: in the path (`https://HOST/BUCKET/KEY`) or in the host name
/// (`https://BUCKET.HOST/KEY`, virtual-hosted).
public enum S3Addressing: String, Sendable, Hashable, CaseIterable {
    /// Virtual-hosted on AWS's own endpoints (`*.amazonaws.com`), path-style on any other: an S3-compatible store
    /// (MinIO, SeaweedFS, Ceph) answers path-style without DNS set-up, as imgproxy's default
    /// (`IMGPROXY_S3_ENDPOINT_USE_PATH_STYLE=true`) assumes.
    case auto
    /// Always path-style.
    case path
    /// Virtual-hosted whenever the bucket can be a host name label and the endpoint's host is a name; path-style
    /// otherwise (an IP address, a bucket with `_` or capitals, a dotted bucket over HTTPS, whose name would not match
    /// the store's certificate), as the AWS SDKs fall back.
    case virtual

    /// The value of botocore's `addressing_style` or of `--s3-addressing`: `auto`, `path` or `virtual`, in any case.
    public init?(name: String) {
        self.init(rawValue: name.trimmingCharacters(in: .whitespaces).lowercased())
    }
}

/// Where one S3 request goes: the URL, the `Host` header and the path that is signed.
struct S3RequestTarget: Sendable, Hashable {
    /// The URL without its query.
    let url: String
    /// The `Host` header (with the port when the endpoint names one).
    let host: String
    /// The path before percent-encoding, as signed (``SignatureV4/encodedPath(_:)`` encodes it for both).
    let path: String
    /// The regions a Signature Version 4A signs for (`*`, for Multi-Region and Outposts access points); `nil`:
    /// Signature Version 4.
    let regionSet: [String]?
    /// The service the request is signed for: `s3`, or `s3-outposts` through an Outposts access point.
    let signingService: String

    /// The target of `key` in `bucket` (`nil`: the bucket itself) at `endpoint`. `connectHost` replaces the host the
    /// connection goes to while the `Host` header and the signature keep the virtual host (tests on 127.0.0.1). A
    /// bucket that is an access point's ARN is reached through the access point (``S3AccessPoint``), whose region
    /// must be `region`; Multi-Region and Outposts access points are always reached over `https://` (a Multi-Region
    /// one at AWS's global host), signed with Signature Version 4A for every region; `connectEndpoint` replaces the
    /// scheme, host and port the connection goes to in that case (tests).
    init(
        endpoint: URL, addressing: S3Addressing, bucket: String, key: String?, region: String = "us-east-1",
        connectHost: String? = nil, connectEndpoint: URL? = nil
    ) throws(S3ConfigurationError) {
        guard let scheme = endpoint.scheme?.lowercased(), let host = endpoint.host, !host.isEmpty else {
            throw .invalidValue(source: "endpoint \(endpoint)", reason: "has no host")
        }
        let port = endpoint.port.map { ":\($0)" } ?? ""
        var base = endpoint.path
        while base.hasSuffix("/") { base.removeLast() }
        let accessPoint = try S3AccessPoint(arn: bucket)
        signingService = accessPoint?.signingService ?? "s3"
        if let accessPoint, accessPoint.signsWithVersion4A {
            let authority =
                try accessPoint.host(endpoint: endpoint, addressing: addressing, region: region)
                + (accessPoint.isMultiRegion ? "" : port)
            path = key.map { "/" + $0 } ?? "/"
            self.host = authority
            regionSet = ["*"]
            let connect = connectEndpoint.flatMap { url in
                url.host.map { "\(url.scheme ?? "https")://\(Self.bracketed($0))" + (url.port.map { ":\($0)" } ?? "") }
            }
            url = (connect ?? "https://\(authority)") + SignatureV4.encodedPath(path)
            return
        }
        regionSet = nil
        let virtual =
            accessPoint != nil || Self.usesVirtualHost(addressing, endpointHost: host, scheme: scheme, bucket: bucket)
        let requestHost =
            try accessPoint?.host(endpoint: endpoint, addressing: addressing, region: region)
            ?? (virtual ? "\(bucket).\(host)" : host)
        path = base + (virtual ? "" : "/" + bucket) + (key.map { "/" + $0 } ?? (virtual ? "/" : ""))
        self.host = Self.bracketed(requestHost) + port
        url = "\(scheme)://\(Self.bracketed(connectHost ?? requestHost))\(port)\(SignatureV4.encodedPath(path))"
    }

    /// An IPv6 address in brackets, as a URL and a `Host` header write it; any other host as it is.
    private static func bracketed(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }

    /// Whether `addressing` puts `bucket` in the host name for an endpoint whose host is `endpointHost`.
    static func usesVirtualHost(
        _ addressing: S3Addressing, endpointHost: String, scheme: String, bucket: String
    ) -> Bool {
        switch addressing {
        case .path: return false
        case .auto:
            let aws =
                endpointHost.lowercased().hasSuffix(".amazonaws.com")
                || endpointHost.lowercased().hasSuffix(".amazonaws.com.cn")
            return aws && canBeHost(bucket, scheme: scheme, endpointHost: endpointHost)
        case .virtual: return canBeHost(bucket, scheme: scheme, endpointHost: endpointHost)
        }
    }

    /// Whether `bucket` can be the first label(s) of a host name under `endpointHost`: 3-63 of `a-z 0-9 - .`,
    /// starting and ending with a letter or digit, not an IP address, no dots over HTTPS; and the endpoint's host is a
    /// name, not an IP address.
    static func canBeHost(_ bucket: String, scheme: String, endpointHost: String) -> Bool {
        guard !isIPAddress(endpointHost) else { return false }
        guard (3...63).contains(bucket.utf8.count), !isIPAddress(bucket) else { return false }
        let bytes = Array(bucket.utf8)
        func alphanumeric(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        guard let first = bytes.first, let last = bytes.last, alphanumeric(first), alphanumeric(last) else {
            return false
        }
        if scheme == "https" && bytes.contains(UInt8(ascii: ".")) { return false }
        var previous: UInt8 = 0
        for byte in bytes {
            guard alphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") else { return false }
            if byte == UInt8(ascii: "."), previous == UInt8(ascii: ".") || previous == UInt8(ascii: "-") {
                return false
            }
            if byte == UInt8(ascii: "-"), previous == UInt8(ascii: ".") { return false }
            previous = byte
        }
        return true
    }

    /// Whether `host` is an IPv4 address (four decimal numbers) or an IPv6 one (it has a `:`).
    static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in !part.isEmpty && part.allSatisfy(\.isNumber) }
    }
}
