import Foundation

/// An AWS service reached with a JSON or query API beside S3: how its endpoint is configured and how its requests
/// are signed.
public struct AWSService: Sendable, Hashable {
    /// The suffix of its endpoint variable (`AWS_ENDPOINT_URL_<ID>`): `STS`, `KMS`, `SECRETS_MANAGER`, `SSM`.
    public let id: String
    /// The key of its block in a `[services NAME]` section of the config file (`sts`, `secrets_manager`…).
    public let configKey: String
    /// The first label of its AWS host name and its signing name (`sts`, `kms`, `secretsmanager`, `ssm`).
    public let signingName: String

    /// STS (`AssumeRole`).
    public static let sts = AWSService(id: "STS", configKey: "sts", signingName: "sts")
    /// KMS (`Decrypt`).
    public static let kms = AWSService(id: "KMS", configKey: "kms", signingName: "kms")
    /// Secrets Manager (`GetSecretValue`).
    public static let secretsManager = AWSService(
        id: "SECRETS_MANAGER", configKey: "secrets_manager", signingName: "secretsmanager")
    /// Systems Manager (`GetParametersByPath`).
    public static let ssm = AWSService(id: "SSM", configKey: "ssm", signingName: "ssm")

    /// AWS's endpoint of this service in `region`: `https://NAME.REGION.amazonaws.com` (`.com.cn` in China).
    public func awsEndpoint(_ region: String) -> URL {
        let suffix = region.hasPrefix("cn-") ? "amazonaws.com.cn" : "amazonaws.com"
        return URL(string: "https://\(signingName).\(region).\(suffix)")
            ?? URL(string: "https://\(signingName).amazonaws.com")!
    }
}
