import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import WebImage

/// The HTTP client of the cloud stores' clients (``GCSClient``, ``AzureBlobClient``, ``SwiftClient``) and of their
/// token services: one connection pool, no redirects, no decompression, every answer read whole under a size limit
/// and a deadline. Failures are `WebImageError`s naming the store and the operation, never a URL's query or a header.
/// The pool is made at the first request, so that a client made for a configuration that then fails needs no
/// shutdown.
final class StoreHTTPClient: Sendable {
    /// An answer read whole.
    struct Response: Sendable {
        let status: Int
        let headers: HTTPHeaders
        let body: Data
    }

    /// The store's name in errors (`GCS`).
    let store: String
    private let configuration: HTTPClient.Configuration
    /// The pool, once made; `nil` before the first request and after ``shutdown()``.
    private let pool = NIOLockedValueBox<(client: HTTPClient?, isShutDown: Bool)>((nil, false))

    /// A client for `store` whose connections must open within `connectTimeout`.
    init(store: String, connectTimeout: Duration = .seconds(10)) {
        self.store = store
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        configuration.timeout.connect = .init(connectTimeout)
        self.configuration = configuration
    }

    /// `method url` with `headers` and `body`, answered within `timeout` and read up to `maxSize` bytes;
    /// `operation` names it in errors (`GET bucket/key`).
    func send(
        _ method: HTTPMethod, _ url: String, headers: [(String, String)] = [], body: Data? = nil,
        timeout: Duration, maxSize: Int, operation: String
    ) async throws(WebImageError) -> Response {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let configuration = configuration
        let client = pool.withLockedValue { pool -> HTTPClient? in
            guard !pool.isShutDown else { return nil }
            if let client = pool.client { return client }
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            pool.client = client
            return client
        }
        guard let client else { throw WebImageError(.cancelled, "\(store) \(operation): the client is shut down") }
        do {
            let response = try await client.execute(request, timeout: .init(timeout))
            let bytes = try await response.body.collect(upTo: max(0, maxSize))
            return Response(
                status: Int(response.status.code), headers: response.headers, body: Data(bytes.readableBytesView))
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            throw WebImageError(.timedOut, "\(store) \(operation) took longer than \(timeout)")
        } catch let error as NIOTooManyBytesError {
            throw WebImageError(
                .bodyTooLarge, "\(store) \(operation): the answer is larger than \(maxSize) bytes", underlying: error)
        } catch {
            throw WebImageError(.connectionFailed, "\(store) \(operation) failed: \(error)", underlying: error)
        }
    }

    /// `text` as one path segment: every byte but ASCII letters, digits and `-._~` percent-encoded.
    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Closes the connection pool.
    func shutdown() async throws {
        let client = pool.withLockedValue { pool -> HTTPClient? in
            defer { pool = (nil, true) }
            return pool.client
        }
        try await client?.shutdown()
    }
}
