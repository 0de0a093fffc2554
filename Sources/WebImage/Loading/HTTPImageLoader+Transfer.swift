import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

extension HTTPImageLoader {
    /// Called on the event loop per received chunk with the bytes so far, the expected total, and a way to get the
    /// bytes themselves.
    typealias TransferProgress = @Sendable (_ received: Int, _ expected: Int?, _ data: () -> Data) -> Void

    /// Performs the HTTP exchange of `key` within its timeout (AsyncHTTPClient's deadline covers the whole
    /// exchange, body included): follows redirects, streams and limits the body. Each hop's address is checked
    /// against ``Configuration/addressPolicy`` before it connects.
    func transfer(
        _ key: DownloadKey, client: HTTPClient, progress: @escaping TransferProgress
    ) async throws -> ImageResponse {
        let deadline = NIODeadline.now() + TimeAmount(key.timeout)
        var url = key.request.url
        var headers = key.request.headers
        var visited: Set<String> = [url.absoluteString]
        var redirects = 0
        while true {
            var fields = HTTPHeaders()
            for field in headers { fields.add(name: field.name, value: field.value) }
            if configuration.propagatesTraceContext {
                TraceHeaders.add(to: &fields, using: configuration.traceInstrument)
            }
            let request = try HTTPClient.Request(url: url.absoluteString, method: .GET, headers: fields)
            let hop = try await route(
                request, url: url, client: client, allowsInvalidCertificates: key.allowsInvalidCertificates,
                deadline: deadline)
            defer { finish(hop) }
            let collector = ResponseCollector(url: url, limit: key.maxBodySize, progress: progress)
            let outcome: ResponseCollector.Outcome
            do {
                let task = hop.client.execute(request: request, delegate: collector, deadline: deadline)
                outcome = try await withTaskCancellationHandler {
                    try await task.futureResult.get()
                } onCancel: {
                    task.cancel()
                }
            } catch {
                throw Self.explain(error, received: collector.received, url: url)
            }
            switch outcome {
            case .response(let response):
                return response
            case .redirect(let location):
                guard let next = URL(string: location, relativeTo: url)?.absoluteURL,
                    let scheme = next.scheme?.lowercased(), scheme == "http" || scheme == "https"
                else {
                    throw WebImageError(.invalidResponse, "redirect to an invalid location '\(location)'", url: url)
                }
                guard redirects < key.redirectLimit else {
                    throw WebImageError(
                        .tooManyRedirects, "more than \(key.redirectLimit) redirects", url: key.request.url)
                }
                guard visited.insert(next.absoluteString).inserted else {
                    throw WebImageError(
                        .tooManyRedirects, "redirect loop through \(next.absoluteString)", url: key.request.url)
                }
                if next.host?.lowercased() != url.host?.lowercased() || next.port != url.port {
                    headers.remove("Authorization")
                    headers.remove("Cookie")
                }
                redirects += 1
                url = next
            }
        }
    }

    /// A connection that failed before the announced length arrived is an incomplete response, whatever the HTTP
    /// parser called it.
    private static func explain(_ error: any Error, received: (count: Int, expected: Int?), url: URL) -> any Error {
        guard !(error is WebImageError), let expected = received.expected, received.count < expected else {
            return error
        }
        if let error = error as? HTTPClientError, error == .cancelled || error == .deadlineExceeded { return error }
        return WebImageError(
            .incompleteResponse, "the connection closed after \(received.count) of \(expected) bytes", url: url,
            underlying: error)
    }

    /// The ``WebImageError`` for an error of AsyncHTTPClient, NIO or Swift concurrency.
    static func map(_ error: any Error, url: URL) -> WebImageError {
        if let error = error as? WebImageError { return error.url == nil ? error.with(url: url) : error }
        if error is CancellationError { return WebImageError(.cancelled, "the load was cancelled", url: url) }
        if error is AdmissionQueue.Refusal { return WebImageError(.cancelled, "the load was cancelled", url: url) }
        if let error = error as? HTTPClientError {
            switch error {
            case .cancelled: return WebImageError(.cancelled, "the load was cancelled", url: url, underlying: error)
            case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .tlsHandshakeTimeout,
                .getConnectionFromPoolTimeout:
                return WebImageError(.timedOut, "timed out (\(error))", url: url, underlying: error)
            case .invalidURL, .emptyHost, .emptyScheme:
                return WebImageError(.invalidSource, "invalid URL (\(error))", url: url, underlying: error)
            case .alreadyShutdown:
                return WebImageError(.invalidArgument, "the HTTP loader was shut down", url: url, underlying: error)
            default: break
            }
        }
        if error is ChannelError, case ChannelError.connectTimeout = error {
            return WebImageError(.timedOut, "connect timed out", url: url, underlying: error)
        }
        // A parser error at end of stream is a connection that closed mid-message; any other is a malformed answer.
        if let error = error as? HTTPParserError {
            return error == .invalidEOFState
                ? WebImageError(.incompleteResponse, "the connection closed mid-response", url: url, underlying: error)
                : WebImageError(.invalidResponse, "malformed HTTP response (\(error))", url: url, underlying: error)
        }
        return WebImageError(.connectionFailed, "connection failed (\(error))", url: url, underlying: error)
    }
}
