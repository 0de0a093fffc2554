import Foundation
import WebImage

/// A client of STS's query API for `AssumeRole` (form-encoded `POST`, Signature Version 4, service `sts`), as the
/// AWS SDKs' assume-role credential provider calls it.
public struct STSClient: Sendable {
    /// Temporary credentials and when they expire.
    public struct TemporaryCredentials: Sendable, Hashable {
        /// The access key (`ASIA…`), its secret and its session token.
        public var credentials: S3Credentials
        /// When STS says they expire.
        public var expiration: Date
    }

    /// The transport to STS.
    public let sender: AWSRequestSender

    /// A client posting through `sender` (whose service is ``AWSService/sts``).
    public init(sender: AWSRequestSender) { self.sender = sender }

    /// Assumes `roleARN` with `credentials`: `RoleSessionName` `sessionName`, `ExternalId` `externalID` when given,
    /// `DurationSeconds` `duration` (900 to 43200).
    /// - Throws: `WebImageError`: the sender's, or `.invalidResponse` for an answer without credentials.
    public func assumeRole(
        _ roleARN: String, externalID: String? = nil, sessionName: String, duration: Int = 900,
        credentials: S3Credentials
    ) async throws(WebImageError) -> TemporaryCredentials {
        var form = [
            ("Action", "AssumeRole"), ("Version", "2011-06-15"), ("RoleArn", roleARN),
            ("RoleSessionName", sessionName), ("DurationSeconds", String(min(max(duration, 900), 43200))),
        ]
        if let externalID, !externalID.isEmpty { form.append(("ExternalId", externalID)) }
        let body = form.map { SignatureV4.encoded($0.0) + "=" + SignatureV4.encoded($0.1) }.joined(separator: "&")
        let answer = try await sender.post(
            Data(body.utf8), headers: [("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")],
            operation: "AssumeRole", credentials: credentials)
        let text = String(decoding: answer, as: UTF8.self)
        func value(_ name: String) -> String? { S3ListPage.values(of: name, in: text).first }
        guard let access = value("AccessKeyId"), !access.isEmpty, let secret = value("SecretAccessKey"),
            !secret.isEmpty, let token = value("SessionToken"), let expiration = value("Expiration").flatMap(Self.date)
        else { throw WebImageError(.invalidResponse, "sts AssumeRole answered no credentials") }
        return TemporaryCredentials(
            credentials: S3Credentials(accessKey: access, secretKey: secret, sessionToken: token),
            expiration: expiration)
    }

    /// An ISO 8601 time (`2026-11-26T08:00:00Z`, with or without fractional seconds).
    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
