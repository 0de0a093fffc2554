import Foundation
import WebImage

/// Loads `s3://bucket/key` sources through an ``S3Client`` (imgproxy's `IMGPROXY_USE_S3`): the bucket is the URL's
/// host, the key its path without the leading `/` (percent-decoded). A missing object is a 404 `WebImageError`
/// (`badStatus`), so a server answers it as an origin 404; a bucket `buckets` refuses is `.forbiddenSource` before any
/// request. A bucket name that `accessPoints` maps (imgproxy's `IMGPROXY_S3_ACCESS_POINTS`) is read through its value,
/// an access point's ARN (or another bucket's name), after the bucket policy has checked the name of the URL. With
/// `decryption` (`IMGPROXY_S3_USE_DECRYPTION_CLIENT`), every object is decrypted as the S3 Encryption Client wrote it.
/// The loader does not shut the client down: its owner does.
public struct S3ImageLoader: ImageLoading {
    /// The client of the source store, with its own endpoint and credentials.
    public let client: S3Client
    /// The buckets that may be read.
    public let buckets: S3BucketPolicy
    /// Bucket names read through an access point: the name in the URL to the access point's ARN.
    public let accessPoints: [String: String]
    /// Decrypts every object, when set.
    public let decryption: S3DecryptionClient?

    /// A loader over `client` reading the buckets `buckets` allows (default: all), through `accessPoints`, decrypting
    /// with `decryption`.
    public init(
        client: S3Client, buckets: S3BucketPolicy = S3BucketPolicy(), accessPoints: [String: String] = [:],
        decryption: S3DecryptionClient? = nil
    ) {
        self.client = client
        self.buckets = buckets
        self.accessPoints = accessPoints
        self.decryption = decryption
    }

    /// Throws for an access point value (of ``accessPoints``) that is an ARN but not one of an S3 access point that
    /// can be reached (another service, an Outposts bucket, a name that cannot be in a host name); a value that is not
    /// an ARN is a bucket name, as the AWS SDKs take it. Multi-Region Access Points and Outposts access points are
    /// reached (Signature Version 4A and `s3-outposts` signing).
    public static func checkAccessPoint(_ value: String) throws(S3ConfigurationError) {
        _ = try S3AccessPoint(arn: value)
    }

    public func canLoad(_ url: URL) -> Bool { url.scheme?.lowercased() == "s3" }

    public func load(
        _ request: ImageLoadRequest, progress: ImageLoadProgressHandler?, partialData: ImagePartialDataHandler?
    ) async throws(WebImageError) -> ImageResponse {
        let url = request.url
        let (bucket, key) = try buckets.location(of: url, storeName: "S3")
        let target = accessPoints[bucket].flatMap { $0.isEmpty ? nil : $0 } ?? bucket
        guard var object = try await client.get(bucket: target, key: key) else {
            throw WebImageError(.badStatus, "no object \(key) in bucket \(bucket)", url: url, httpStatus: 404)
        }
        if let decryption { object = try await decryption.decrypt(object, bucket: target, key: key, client: client) }
        return try object.response(to: url, maxSize: request.options.maxBodySize)
    }
}
