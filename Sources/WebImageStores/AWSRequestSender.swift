import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import WebImage

/// Sends signed `POST` requests (Signature Version 4) to one AWS service's endpoint over AsyncHTTPClient: the
/// transport of ``AWSJSONClient`` (KMS, Secrets Manager, SSM) and ``STSClient`` (the query API).
///
/// No redirects are followed. A request past `timeout` is `.timedOut`, an answer past `maxResponseSize`
/// `.bodyTooLarge`, a refused connection `.connectionFailed`, an answer other than 2xx `.badStatus` with an
/// ``AWSServiceError`` as its `underlying` error. Errors never carry the secret, the session token or the body.
public final class AWSRequestSender: Sendable {
    /// The service's endpoint (its path is kept as the request path).
    public let endpoint: URL
    /// The signing region.
    public let region: String
    /// The service.
    public let service: AWSService
    /// How long one request may take.
    public let timeout: Duration
    /// The largest answer read.
    public let maxResponseSize: Int
    private let client: HTTPClient

    /// A sender to `endpoint`, with its own connection pool; call ``shutdown()`` when done.
    public init(
        endpoint: URL, region: String, service: AWSService, timeout: Duration = .seconds(30),
        maxResponseSize: Int = 4 << 20
    ) {
        self.endpoint = endpoint
        self.region = region
        self.service = service
        self.timeout = timeout
        self.maxResponseSize = max(0, maxResponseSize)
        var http = HTTPClient.Configuration()
        http.redirectConfiguration = .disallow
        http.decompression = .disabled
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: http)
    }

    /// A sender of `resolution`'s endpoint, region and service.
    public convenience init(_ resolution: S3Environment.ServiceResolution, timeout: Duration = .seconds(30)) {
        self.init(
            endpoint: resolution.endpoint, region: resolution.region, service: resolution.service, timeout: timeout)
    }

    /// Posts `body` with `headers` (besides `Host` and the signature's), signed with `credentials`, and returns the
    /// answer's body when its status is 2xx.
    /// - Throws: `WebImageError` as the type describes; `operation` names the call in it.
    public func post(
        _ body: Data, headers: [(String, String)], operation: String, credentials: S3Credentials
    ) async throws(WebImageError) -> Data {
        guard let scheme = endpoint.scheme?.lowercased(), let host = endpoint.host, !host.isEmpty else {
            throw WebImageError(.invalidArgument, "the \(service.signingName) endpoint \(endpoint) has no host")
        }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let authority = bracketed + (endpoint.port.map { ":\($0)" } ?? "")
        let path = endpoint.path.isEmpty ? "/" : endpoint.path
        let signer = SignatureV4(credentials: credentials, region: region, service: service.signingName)
        let signed = signer.signedHeaders(
            method: "POST", path: path, headers: [("host", authority)] + headers,
            payloadHash: Hex.string(SHA256.hash(data: body)), date: Date())
        var request = HTTPClientRequest(url: "\(scheme)://\(authority)\(SignatureV4.encodedPath(path))")
        request.method = .POST
        request.headers.add(name: "Host", value: authority)
        for (name, value) in headers + signed { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let status: Int
        let answer: Data
        do {
            let response = try await client.execute(request, timeout: .init(timeout))
            status = Int(response.status.code)
            answer = Data(try await response.body.collect(upTo: maxResponseSize).readableBytesView)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            throw WebImageError(.timedOut, "\(service.signingName) \(operation) took longer than \(timeout)")
        } catch is NIOTooManyBytesError {
            throw WebImageError(
                .bodyTooLarge, "\(service.signingName) \(operation) answered more than \(maxResponseSize) bytes")
        } catch {
            throw WebImageError(
                .connectionFailed, "\(service.signingName) \(operation) at \(endpoint) failed: \(error)",
                underlying: error)
        }
        guard (200..<300).contains(status) else {
            let error = AWSServiceError(
                service: service.signingName, operation: operation, status: status,
                code: AWSServiceError.code(in: answer), accessKey: credentials.accessKey)
            throw WebImageError(.badStatus, error.description, httpStatus: status, underlying: error)
        }
        return answer
    }

    /// Closes the connection pool.
    public func shutdown() async throws { try await client.shutdown() }
}
