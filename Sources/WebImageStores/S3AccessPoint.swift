import Foundation

/// An S3 access point's ARN, `arn:PARTITION:s3:REGION:ACCOUNT:accesspoint/NAME` (or `accesspoint:NAME`), named as a
/// bucket (imgproxy's `IMGPROXY_S3_ACCESS_POINTS` puts one in place of a bucket name), and where requests through it
/// go, as the AWS SDKs' S3 endpoint rules resolve it. An ARN without a region is a Multi-Region Access Point's
/// (`arn:aws:s3::ACCOUNT:accesspoint/ALIAS.mrap`), reached at `ALIAS.accesspoint.s3-global.amazonaws.com` and signed
/// with Signature Version 4A for every region (``SignatureV4A``).
struct S3AccessPoint: Sendable, Hashable {
    let partition: String
    /// Empty for a Multi-Region Access Point.
    let region: String
    let account: String
    let name: String

    /// Whether this is a Multi-Region Access Point (no region in its ARN).
    var isMultiRegion: Bool { region.isEmpty }

    /// The access point of `arn`, `nil` when `arn` is not an ARN (`arn:` then five `:`-separated fields); an ARN of
    /// anything else (another service, an Outposts access point, a name that cannot be a host name's label, or a
    /// Multi-Region alias whose dot-separated labels cannot) is an error, as in the SDKs.
    init?(arn: String) throws(S3ConfigurationError) {
        guard arn.hasPrefix("arn:") else { return nil }
        let fields = arn.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 6 else { throw .invalidValue(source: "the ARN \(arn)", reason: "is not a valid ARN") }
        let resource = fields[5].split(maxSplits: 1, whereSeparator: { $0 == "/" || $0 == ":" }).map(String.init)
        guard fields[2] == "s3", resource.count == 2, resource[0] == "accesspoint" else {
            throw .invalidValue(source: "the ARN \(arn)", reason: "is not an S3 access point's ARN")
        }
        let checked: [(value: String, what: String, valid: Bool)] =
            fields[3].isEmpty
            ? [(resource[1], "Multi-Region Access Point alias", Self.isHostName(resource[1]))]
            : [(fields[3], "region"), (fields[4], "account id"), (resource[1], "access point name")].map {
                ($0.0, $0.1, Self.isHostLabel($0.0))
            }
        for (value, what, valid) in checked where !valid {
            throw .invalidValue(source: "the ARN \(arn)", reason: "its \(what) '\(value)' cannot be in a host name")
        }
        (partition, region, account, name) = (fields[1], fields[3], fields[4], resource[1])
    }

    /// The host of requests through this access point at `endpoint`: AWS's
    /// `NAME-ACCOUNT.s3-accesspoint.REGION.amazonaws.com` when `endpoint` is AWS's, else `NAME-ACCOUNT.` before the
    /// custom endpoint's host (which must then be virtual-hosted, as the SDKs require). `region` is the client's:
    /// the ARN's must be the same (the SDKs' default, `UseArnRegion` false). A Multi-Region Access Point's host is
    /// always AWS's global one, `ALIAS.accesspoint.s3-global.` and the DNS suffix of the client region's partition,
    /// which must be the ARN's; as in the SDKs, a custom endpoint does not change it, but still needs virtual-hosted
    /// addressing.
    func host(endpoint: URL, addressing: S3Addressing, region: String) throws(S3ConfigurationError) -> String {
        let source = "the access point arn:\(partition):s3:\(self.region):\(account):accesspoint/\(name)"
        guard isMultiRegion || self.region == region else {
            throw .invalidValue(
                source: source, reason: "its region \(self.region) is not the client's region \(region)")
        }
        let endpointHost = (endpoint.host ?? "").lowercased()
        let onAWS = endpointHost.hasSuffix(".amazonaws.com") || endpointHost.hasSuffix(".amazonaws.com.cn")
        guard onAWS || addressing == .virtual else {
            throw .invalidValue(
                source: source,
                reason: "path-style addressing cannot be used with access point ARNs on a custom endpoint "
                    + "(set --s3-addressing virtual, IMGPROXY_S3_ENDPOINT_USE_PATH_STYLE=false)")
        }
        if isMultiRegion {
            let (clientPartition, suffix) = Self.partition(of: region)
            guard clientPartition == partition else {
                throw .invalidValue(
                    source: source,
                    reason: "the client's region \(region) is in the partition \(clientPartition), not \(partition)")
            }
            return "\(name).accesspoint.s3-global.\(suffix)"
        }
        if onAWS {
            let suffix = endpointHost.hasSuffix(".com.cn") ? "amazonaws.com.cn" : "amazonaws.com"
            return "\(name)-\(account).s3-accesspoint.\(region).\(suffix)"
        }
        return "\(name)-\(account).\(endpointHost)"
    }

    /// The partition of `region` and its DNS suffix: `aws-cn` (`amazonaws.com.cn`) for `cn-*`, `aws-us-gov` for
    /// `us-gov-*`, else `aws` (`amazonaws.com`).
    static func partition(of region: String) -> (name: String, dnsSuffix: String) {
        if region.hasPrefix("cn-") { return ("aws-cn", "amazonaws.com.cn") }
        if region.hasPrefix("us-gov-") { return ("aws-us-gov", "amazonaws.com") }
        return ("aws", "amazonaws.com")
    }

    /// Dot-separated host labels (``isHostLabel(_:)``), as a Multi-Region alias may be.
    static func isHostName(_ text: String) -> Bool {
        text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { isHostLabel(String($0)) }
    }

    /// 1 to 63 of `a-z A-Z 0-9 -`, not starting with `-`.
    static func isHostLabel(_ text: String) -> Bool {
        (1...63).contains(text.utf8.count) && text.first != "-"
            && text.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-")
            }
    }
}
