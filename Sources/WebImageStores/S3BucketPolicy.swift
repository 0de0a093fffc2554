/// Which buckets `s3://` sources may be read from, as imgproxy's `IMGPROXY_S3_ALLOWED_BUCKETS` and
/// `IMGPROXY_S3_DENIED_BUCKETS` say: with an allowed list, only its buckets; never a denied one. Names are compared
/// exactly. The other stores' lists (`IMGPROXY_GCS_…`, `IMGPROXY_ABS_…`, `IMGPROXY_SWIFT_…`) are policies of this
/// type too (``ObjectStoreImageLoader/buckets``), as imgproxy checks every store's with one function.
public struct S3BucketPolicy: Sendable, Hashable {
    /// The buckets allowed; empty allows every bucket that is not denied.
    public var allowed: Set<String>
    /// The buckets refused, whether allowed or not.
    public var denied: Set<String>

    /// A policy of `allowed` and `denied` buckets; the default allows every bucket.
    public init(allowed: some Sequence<String> = [], denied: some Sequence<String> = []) {
        self.allowed = Set(allowed)
        self.denied = Set(denied)
    }

    /// Whether `bucket` may be read.
    public func allows(_ bucket: String) -> Bool {
        (allowed.isEmpty || allowed.contains(bucket)) && !denied.contains(bucket)
    }
}
