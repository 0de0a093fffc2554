import WebImage

/// Where the shared tier lives: a bucket and a key prefix, written `s3://bucket/prefix` (the prefix may be empty).
public struct SharedStoreLocation: Sendable, Hashable, CustomStringConvertible {
    /// The bucket (the first path segment of a path-style URL).
    public let bucket: String
    /// The key prefix without leading or trailing slashes; empty for the bucket's root.
    public let prefix: String

    /// The location of `s3://bucket/prefix`.
    /// - Throws: `.invalidArgument` for another scheme or an invalid bucket name.
    public init(_ text: String) throws(WebImageError) {
        guard text.hasPrefix("s3://") else {
            throw WebImageError(.invalidArgument, "a shared store is written s3://bucket/prefix, not '\(text)'")
        }
        let rest = text.dropFirst("s3://".count)
        let bucket = String(rest.prefix { $0 != "/" })
        // S3's rules: 3 to 63 characters, lower-case letters, digits, dots and hyphens.
        let allowed = bucket.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        guard (3...63).contains(bucket.count), allowed else {
            throw WebImageError(.invalidArgument, "'\(bucket)' is not a valid bucket name (3-63 of a-z 0-9 . -)")
        }
        self.bucket = bucket
        prefix = rest.dropFirst(bucket.count).split(separator: "/").joined(separator: "/")
    }

    /// `path` below the prefix.
    public func key(_ path: String) -> String { prefix.isEmpty ? path : prefix + "/" + path }

    public var description: String { "s3://\(bucket)" + (prefix.isEmpty ? "" : "/" + prefix) }
}
