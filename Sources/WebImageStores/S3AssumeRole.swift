import Foundation

/// A role an ``S3Client`` assumes through STS (imgproxy's `IMGPROXY_S3_ASSUME_ROLE_ARN` and
/// `IMGPROXY_S3_ASSUME_ROLE_EXTERNAL_ID`): the client's credentials sign `AssumeRole`, and the temporary credentials
/// it answers sign every S3 request until shortly before they expire, when they are asked for again.
public struct S3AssumeRole: Sendable, Hashable {
    /// The role's ARN (`arn:aws:iam::123456789012:role/images`).
    public var roleARN: String
    /// The external id the role's trust policy asks for, if any.
    public var externalID: String?
    /// STS's endpoint (``S3Environment/resolve(_:region:defaultRegion:)`` with ``AWSService/sts``).
    public var endpoint: URL
    /// STS's signing region.
    public var region: String
    /// How long the temporary credentials last, in seconds; default 900 (the AWS SDKs' 15 minutes).
    public var duration: Int

    /// A role to assume at `endpoint`.
    public init(roleARN: String, externalID: String? = nil, endpoint: URL, region: String, duration: Int = 900) {
        self.roleARN = roleARN
        self.externalID = externalID.flatMap { $0.isEmpty ? nil : $0 }
        self.endpoint = endpoint
        self.region = region
        self.duration = duration
    }
}
