import Foundation
import WebImage

/// A client of Systems Manager's `GetParametersByPath` (JSON API, `AmazonSSM.GetParametersByPath`), decrypting
/// `SecureString` parameters and following `NextToken` to the last page.
public struct SSMClient: Sendable {
    /// One parameter.
    public struct Parameter: Sendable, Hashable {
        /// Its full name (`/imgproxy/prod/IMGPROXY_KEY`).
        public var name: String
        /// Its value, decrypted.
        public var value: String
        /// Its data type (`text`, `aws:ec2:image`), `nil` when the answer named none.
        public var dataType: String?
    }

    private struct Request: Encodable {
        var Path: String
        var WithDecryption: Bool
        var NextToken: String?
    }

    private struct Response: Decodable {
        struct Item: Decodable {
            var Name: String?
            var Value: String?
            var DataType: String?
        }
        var Parameters: [Item]?
        var NextToken: String?
    }

    /// How many pages are read at most (10 parameters each, AWS's default), so that a store that always answers a
    /// `NextToken` cannot keep the start going.
    public static let maxPages = 1000

    /// The JSON client, whose sender's service is ``AWSService/ssm``.
    public let json: AWSJSONClient

    /// A client posting through `sender`.
    public init(sender: AWSRequestSender) { json = AWSJSONClient(sender: sender, targetPrefix: "AmazonSSM") }

    /// Every parameter directly under `path` (not recursive, as imgproxy asks), decrypted, over every page.
    /// - Throws: `WebImageError`: the sender's, or `.invalidResponse` past ``maxPages``.
    public func parameters(under path: String, credentials: S3Credentials) async throws(WebImageError) -> [Parameter] {
        var parameters: [Parameter] = []
        var token: String?
        for _ in 0..<Self.maxPages {
            let page = try await json.call(
                "GetParametersByPath", Request(Path: path, WithDecryption: true, NextToken: token),
                credentials: credentials, as: Response.self)
            for item in page.Parameters ?? [] {
                guard let name = item.Name, let value = item.Value else { continue }
                parameters.append(Parameter(name: name, value: value, dataType: item.DataType))
            }
            guard let next = page.NextToken, !next.isEmpty else { return parameters }
            token = next
        }
        throw WebImageError(.invalidResponse, "ssm GetParametersByPath answered more than \(Self.maxPages) pages")
    }
}
