import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

extension HTTPImageLoader {
    /// Called per received chunk with the bytes so far, the expected total, and a way to get the bytes themselves.
    typealias TransferProgress = @Sendable (_ received: Int, _ expected: Int?, _ data: () -> Data) -> Void

    /// Performs the HTTP exchange of `key` within its timeout: follows redirects, streams and limits the body.
    ///
    /// AsyncHTTPClient's deadline stops waiting for the head; a timer on the event loop calls `cancel` (which
    /// cancels the calling task) when the body is still streaming at the deadline.
    func transfer(
        _ key: DownloadKey, client: HTTPClient, cancel: @escaping @Sendable () -> Void,
        progress: @escaping TransferProgress
    ) async throws -> ImageResponse {
        let timeout = key.timeout
        let deadline = NIODeadline.now() + TimeAmount(timeout)
        let expired = Atomic<Bool>(false)
        let timer = client.eventLoopGroup.any().scheduleTask(deadline: deadline) {
            expired.store(true, ordering: .relaxed)
            cancel()
        }
        defer { timer.cancel() }
        do {
            return try await Self.exchange(key, client: client, deadline: deadline, progress: progress)
        } catch where expired.load(ordering: .relaxed) {
            throw WebImageError(.timedOut, "no complete response within \(timeout)", url: key.request.url)
        }
    }

    private static func exchange(
        _ key: DownloadKey, client: HTTPClient, deadline: NIODeadline, progress: TransferProgress
    ) async throws -> ImageResponse {
        var url = key.request.url
        var headers = key.request.headers
        var visited: Set<String> = [url.absoluteString]
        var redirects = 0
        while true {
            var request = HTTPClientRequest(url: url.absoluteString)
            request.method = .GET
            for field in headers { request.headers.add(name: field.name, value: field.value) }
            let response = try await client.execute(request, deadline: deadline)
            let status = Int(response.status.code)
            if [301, 302, 303, 307, 308].contains(status), let location = response.headers.first(name: "location") {
                guard let next = URL(string: location, relativeTo: url)?.absoluteURL,
                    let scheme = next.scheme?.lowercased(), scheme == "http" || scheme == "https"
                else {
                    throw WebImageError(.invalidResponse, "redirect to an invalid location '\(location)'", url: url)
                }
                guard redirects < key.redirectLimit else {
                    throw WebImageError(.tooManyRedirects, "more than \(key.redirectLimit) redirects", url: key.request.url)
                }
                guard visited.insert(next.absoluteString).inserted else {
                    throw WebImageError(.tooManyRedirects, "redirect loop through \(next.absoluteString)", url: key.request.url)
                }
                if next.host?.lowercased() != url.host?.lowercased() || next.port != url.port {
                    headers.remove("Authorization")
                    headers.remove("Cookie")
                }
                redirects += 1
                url = next
                continue  // the unread redirect body is dropped, which closes its connection
            }
            var responseHeaders = ImageHTTPHeaders()
            for header in response.headers { responseHeaders.add(name: header.name, value: header.value) }
            let expected = response.headers.first(name: "content-length").flatMap { Int($0) }
            let data = try await readBody(
                response.body, expected: expected, limit: key.maxBodySize, url: url, progress: progress)
            return ImageResponse(
                data: data, url: url, httpStatus: status, headers: responseHeaders, expectedLength: expected)
        }
    }

    /// Reads the body while enforcing `limit` and checking the length against `expected`.
    private static func readBody(
        _ body: HTTPClientResponse.Body, expected: Int?, limit: Int, url: URL, progress: TransferProgress
    ) async throws -> Data {
        if let expected, expected > limit {
            throw WebImageError(
                .bodyTooLarge, "Content-Length \(expected) exceeds the limit of \(limit) bytes", url: url)
        }
        var data = Data()
        data.reserveCapacity(min(expected ?? 64 * 1024, limit))
        do {
            for try await buffer in body {
                guard data.count + buffer.readableBytes <= limit else {
                    throw WebImageError(.bodyTooLarge, "the body exceeds the limit of \(limit) bytes", url: url)
                }
                data.append(contentsOf: buffer.readableBytesView)
                progress(data.count, expected) { data }
            }
        } catch let error as WebImageError {
            throw error
        } catch {
            if let expected, data.count < expected, !(error is CancellationError) {
                throw WebImageError(
                    .connectionFailed, "the connection closed after \(data.count) of \(expected) bytes", url: url,
                    underlying: error)
            }
            throw error
        }
        if let expected, data.count != expected {
            throw WebImageError(
                .invalidResponse, "received \(data.count) bytes but Content-Length said \(expected)", url: url)
        }
        return data
    }

    /// The ``WebImageError`` for an error of AsyncHTTPClient, NIO or Swift concurrency.
    static func map(_ error: any Error, url: URL) -> WebImageError {
        if let error = error as? WebImageError { return error.url == nil ? error.with(url: url) : error }
        if error is CancellationError { return WebImageError(.cancelled, "the load was cancelled", url: url) }
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
        let text = String(describing: error)
        if text.contains("HTTPParserError") {
            return WebImageError(.invalidResponse, "malformed HTTP response (\(text))", url: url, underlying: error)
        }
        return WebImageError(.connectionFailed, "connection failed (\(text))", url: url, underlying: error)
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let parts = duration.components
        self = .nanoseconds(parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000)
    }
}
