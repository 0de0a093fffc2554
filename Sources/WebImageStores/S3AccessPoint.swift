import Foundation

/// An S3 access point's ARN, `arn:PARTITION:s3:REGION:ACCOUNT:accesspoint/NAME` (or `accesspoint:NAME`), named as a
/// bucket (imgproxy's `IMGPROXY_S3_ACCESS_POINTS` puts one in place of a bucket name), and where requests through it
/// go, as the AWS SDKs' S3 endpoint rules resolve it. Two kinds are signed with Signature Version 4A for every
/// region (``SignatureV4A``), as the SDKs sign them: an ARN without a region is a Multi-Region Access Point's
/// (`arn:aws:s3::ACCOUNT:accesspoint/ALIAS.mrap`, reached at `ALIAS.accesspoint.s3-global.amazonaws.com`), and an
/// `s3-outposts` ARN an Outposts access point's
/// (`arn:aws:s3-outposts:REGION:ACCOUNT:outpost/OUTPOST/accesspoint/NAME`, signed for the service `s3-outposts`).
struct S3AccessPoint: Sendable, Hashable {
    let partition: String
    /// Empty for a Multi-Region Access Point.
    let region: String
    let account: String
    let name: String
    /// The Outpost's id, for an Outposts access point.
    let outpost: String?

    /// Whether this is a Multi-Region Access Point (no region in its ARN).
    var isMultiRegion: Bool { region.isEmpty }

    /// The service its requests are signed for: `s3-outposts` for an Outposts access point, else `s3`.
    var signingService: String { outpost == nil ? "s3" : "s3-outposts" }

    /// Whether its requests are signed with Signature Version 4A (Multi-Region and Outposts access points).
    var signsWithVersion4A: Bool { isMultiRegion || outpost != nil }

    /// The access point of `arn`, `nil` when `arn` is not an ARN (`arn:` then five `:`-separated fields); an ARN of
    /// anything else (another service, an Outposts bucket, a name that cannot be a host name's label, or a
    /// Multi-Region alias whose dot-separated labels cannot) is an error, as in the SDKs.
    init?(arn: String) throws(S3ConfigurationError) {
        guard arn.hasPrefix("arn:") else { return nil }
        let fields = arn.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 6 else { throw .invalidValue(source: "the ARN \(arn)", reason: "is not a valid ARN") }
        let outposts = fields[2] == "s3-outposts"
        let resource = fields[5].split(
            maxSplits: outposts ? Int.max : 1, omittingEmptySubsequences: false,
            whereSeparator: { $0 == "/" || $0 == ":" }
        ).map(String.init)
        let shape =
            outposts
            ? resource.count == 4 && resource[0] == "outpost" && resource[2] == "accesspoint"
            : fields[2] == "s3" && resource.count == 2 && resource[0] == "accesspoint"
        guard shape else {
            throw .invalidValue(source: "the ARN \(arn)", reason: "is not an S3 access point's ARN")
        }
        let name = resource[outposts ? 3 : 1]
        var checked: [(value: String, what: String, valid: Bool)] =
            fields[3].isEmpty && !outposts
            ? [(name, "Multi-Region Access Point alias", Self.isHostName(name))]
            : [(fields[3], "region"), (fields[4], "account id"), (name, "access point name")].map {
                ($0.0, $0.1, Self.isHostLabel($0.0))
            }
        if outposts { checked.append((resource[1], "outpost id", Self.isHostLabel(resource[1]))) }
        for (value, what, valid) in checked where !valid {
            throw .invalidValue(source: "the ARN \(arn)", reason: "its \(what) '\(value)' cannot be in a host name")
        }
        (partition, region, account, self.name) = (fields[1], fields[3], fields[4], name)
        outpost = outposts ? resource[1] : nil
    }

    /// The host of requests through this access point at `endpoint`: AWS's
    /// `NAME-ACCOUNT.s3-accesspoint.REGION.amazonaws.com` (`NAME-ACCOUNT.OUTPOST.s3-outposts.REGION.amazonaws.com`
    /// for Outposts) when `endpoint` is AWS's, else `NAME-ACCOUNT.` (`NAME-ACCOUNT.OUTPOST.`) before the custom
    /// endpoint's host (which must then be virtual-hosted, as the SDKs require). `region` is the client's: the ARN's
    /// must be the same (the SDKs' default, `UseArnRegion` false). A Multi-Region Access Point's host is always AWS's
    /// global one, `ALIAS.accesspoint.s3-global.` and the DNS suffix of the client region's partition, which must be
    /// the ARN's; as in the SDKs, a custom endpoint does not change it, but still needs virtual-hosted addressing.
    func host(endpoint: URL, addressing: S3Addressing, region: String) throws(S3ConfigurationError) -> String {
        let resource = outpost.map { "outpost/\($0)/accesspoint/\(name)" } ?? "accesspoint/\(name)"
        let source = "the access point arn:\(partition):\(signingService):\(self.region):\(account):\(resource)"
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
        let prefix = "\(name)-\(account)" + (outpost.map { ".\($0)" } ?? "")
        if onAWS {
            let suffix = endpointHost.hasSuffix(".com.cn") ? "amazonaws.com.cn" : "amazonaws.com"
            return "\(prefix).\(outpost == nil ? "s3-accesspoint" : "s3-outposts").\(region).\(suffix)"
        }
        return "\(prefix).\(endpointHost)"
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
