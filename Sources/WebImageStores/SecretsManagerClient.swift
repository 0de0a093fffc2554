import Foundation
import WebImage

/// A client of Secrets Manager's `GetSecretValue` (JSON API, `secretsmanager.GetSecretValue`).
public struct SecretsManagerClient: Sendable {
    private struct Request: Encodable {
        var secretID: String
        var versionID: String?
        var versionStage: String?
        enum CodingKeys: String, CodingKey {
            case secretID = "SecretId", versionID = "VersionId", versionStage = "VersionStage"
        }
    }

    private struct Response: Decodable {
        var secretString: String?
        enum CodingKeys: String, CodingKey { case secretString = "SecretString" }
    }

    /// The JSON client, whose sender's service is ``AWSService/secretsManager``.
    public let json: AWSJSONClient

    /// A client posting through `sender`.
    public init(sender: AWSRequestSender) { json = AWSJSONClient(sender: sender, targetPrefix: "secretsmanager") }

    /// The `SecretString` of the secret `id` (`nil` for a binary secret): the version `versionID` when given, else
    /// the stage `versionStage` when given, else the current one.
    public func secretString(
        _ id: String, versionID: String? = nil, versionStage: String? = nil, credentials: S3Credentials
    ) async throws(WebImageError) -> String? {
        let versionID = versionID.flatMap { $0.isEmpty ? nil : $0 }
        let request = Request(
            secretID: id, versionID: versionID,
            versionStage: versionID == nil ? versionStage.flatMap { $0.isEmpty ? nil : $0 } : nil)
        return try await json.call("GetSecretValue", request, credentials: credentials, as: Response.self)
            .secretString
    }
}
