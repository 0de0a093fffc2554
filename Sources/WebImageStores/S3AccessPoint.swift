import Foundation

/// An S3 access point's ARN, `arn:PARTITION:s3:REGION:ACCOUNT:accesspoint/NAME` (or `accesspoint:NAME`), named as a
/// bucket (imgproxy's `IMGPROXY_S3_ACCESS_POINTS` puts one in place of a bucket name), and where requests through it
/// go, as the AWS SDKs' S3 endpoint rules resolve it.
struct S3AccessPoint: Sendable, Hashable {
    let partition: String
    let region: String
    let account: String
    let name: String

    /// The access point of `arn`, `nil` when `arn` is not an ARN (`arn:` then five `:`-separated fields); an ARN of
    /// anything else (another service, an Outposts or Multi-Region access point, a name that cannot be a host name's
    /// label) is an error, as in the SDKs.
    init?(arn: String) throws(S3ConfigurationError) {
        guard arn.hasPrefix("arn:") else { return nil }
        let fields = arn.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 6 else { throw .invalidValue(source: "the ARN \(arn)", reason: "is not a valid ARN") }
        let resource = fields[5].split(maxSplits: 1, whereSeparator: { $0 == "/" || $0 == ":" }).map(String.init)
        guard fields[2] == "s3", resource.count == 2, resource[0] == "accesspoint" else {
            throw .invalidValue(source: "the ARN \(arn)", reason: "is not an S3 access point's ARN")
        }
        guard !fields[3].isEmpty else {
            throw .invalidValue(
                source: "the ARN \(arn)",
                reason: "is a Multi-Region Access Point (Signature Version 4A), which is not supported")
        }
        for (value, what) in [(fields[3], "region"), (fields[4], "account id"), (resource[1], "access point name")]
        where !Self.isHostLabel(value) {
            throw .invalidValue(source: "the ARN \(arn)", reason: "its \(what) '\(value)' cannot be in a host name")
        }
        (partition, region, account, name) = (fields[1], fields[3], fields[4], resource[1])
    }

    /// The host of requests through this access point at `endpoint`: AWS's
    /// `NAME-ACCOUNT.s3-accesspoint.REGION.amazonaws.com` when `endpoint` is AWS's, else `NAME-ACCOUNT.` before the
    /// custom endpoint's host (which must then be virtual-hosted, as the SDKs require). `region` is the client's:
    /// the ARN's must be the same (the SDKs' default, `UseArnRegion` false).
    func host(endpoint: URL, addressing: S3Addressing, region: String) throws(S3ConfigurationError) -> String {
        let source = "the access point arn:\(partition):s3:\(region):\(account):accesspoint/\(name)"
        guard self.region == region else {
            throw .invalidValue(
                source: source, reason: "its region \(self.region) is not the client's region \(region)")
        }
        let endpointHost = (endpoint.host ?? "").lowercased()
        if endpointHost.hasSuffix(".amazonaws.com") || endpointHost.hasSuffix(".amazonaws.com.cn") {
            let suffix = endpointHost.hasSuffix(".com.cn") ? "amazonaws.com.cn" : "amazonaws.com"
            return "\(name)-\(account).s3-accesspoint.\(region).\(suffix)"
        }
        guard addressing == .virtual else {
            throw .invalidValue(
                source: source,
                reason: "path-style addressing cannot be used with access point ARNs on a custom endpoint "
                    + "(set --s3-addressing virtual, IMGPROXY_S3_ENDPOINT_USE_PATH_STYLE=false)")
        }
        return "\(name)-\(account).\(endpointHost)"
    }

    /// 1 to 63 of `a-z A-Z 0-9 -`, not starting with `-`.
    static func isHostLabel(_ text: String) -> Bool {
        (1...63).contains(text.utf8.count) && text.first != "-"
            && text.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-")
            }
    }
}
