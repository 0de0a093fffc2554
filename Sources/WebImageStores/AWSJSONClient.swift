import Foundation
import WebImage

/// A client of an AWS JSON API (`application/x-amz-json-1.1`, the operation in `X-Amz-Target`): KMS, Secrets Manager
/// and SSM. Requests and answers are `Codable` values; an answer that does not decode is `.invalidResponse`.
public struct AWSJSONClient: Sendable {
    /// The transport, which knows the endpoint, region and service.
    public let sender: AWSRequestSender
    /// The target's prefix: `TrentService` (KMS), `secretsmanager`, `AmazonSSM`.
    public let targetPrefix: String

    /// A client posting through `sender` to operations `targetPrefix.OPERATION`.
    public init(sender: AWSRequestSender, targetPrefix: String) {
        self.sender = sender
        self.targetPrefix = targetPrefix
    }

    /// Calls `operation` with `request`, signed with `credentials`, and decodes its answer.
    /// - Throws: `WebImageError`: the sender's, or `.invalidResponse` for an answer that is not a `Response`.
    public func call<Request: Encodable, Response: Decodable>(
        _ operation: String, _ request: Request, credentials: S3Credentials, as type: Response.Type = Response.self
    ) async throws(WebImageError) -> Response {
        let body: Data
        do { body = try JSONEncoder().encode(request) } catch {
            throw WebImageError(.invalidArgument, "\(operation): the request cannot be encoded", underlying: error)
        }
        let answer = try await sender.post(
            body,
            headers: [
                ("Content-Type", "application/x-amz-json-1.1"), ("X-Amz-Target", "\(targetPrefix).\(operation)"),
            ], operation: operation, credentials: credentials)
        do { return try JSONDecoder().decode(Response.self, from: answer) } catch {
            throw WebImageError(
                .invalidResponse, "\(sender.service.signingName) \(operation) answered JSON that does not decode")
        }
    }
}
