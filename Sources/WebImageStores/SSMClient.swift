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
        var path: String
        var withDecryption: Bool
        var nextToken: String?
        enum CodingKeys: String, CodingKey {
            case path = "Path", withDecryption = "WithDecryption", nextToken = "NextToken"
        }
    }

    private struct Response: Decodable {
        struct Item: Decodable {
            var name: String?
            var value: String?
            var dataType: String?
            enum CodingKeys: String, CodingKey { case name = "Name", value = "Value", dataType = "DataType" }
        }
        var parameters: [Item]?
        var nextToken: String?
        enum CodingKeys: String, CodingKey { case parameters = "Parameters", nextToken = "NextToken" }
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
                "GetParametersByPath", Request(path: path, withDecryption: true, nextToken: token),
                credentials: credentials, as: Response.self)
            for item in page.parameters ?? [] {
                guard let name = item.name, let value = item.value else { continue }
                parameters.append(Parameter(name: name, value: value, dataType: item.dataType))
            }
            guard let next = page.nextToken, !next.isEmpty else { return parameters }
            token = next
        }
        throw WebImageError(.invalidResponse, "ssm GetParametersByPath answered more than \(Self.maxPages) pages")
    }
}
