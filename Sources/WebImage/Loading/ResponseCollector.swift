import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Collects one HTTP response on its event loop: the head, then the body into one buffer, refusing a body over the
/// size limit as soon as it is announced or exceeded, and reporting progress after every chunk.
///
/// AsyncHTTPClient calls these methods on the request's event loop, one at a time; the lock is never contended.
final class ResponseCollector: HTTPClientResponseDelegate {
    /// What one exchange produced.
    enum Outcome: Sendable {
        /// A redirect status with a `Location`; its body was read and dropped, so the connection is reused.
        case redirect(location: String)
        /// The final response.
        case response(ImageResponse)
    }

    private struct State {
        var status = 0
        var headers = HTTPHeaders()
        var expected: Int?
        var redirect: String?
        var body = Data()
    }

    private let url: URL
    private let limit: Int
    private let progress: HTTPImageLoader.TransferProgress
    private let state = Locked(State())

    init(url: URL, limit: Int, progress: @escaping HTTPImageLoader.TransferProgress) {
        self.url = url
        self.limit = limit
        self.progress = progress
    }

    /// The body bytes received so far and the announced length, for explaining a connection that failed early.
    var received: (count: Int, expected: Int?) { state.withLock { ($0.body.count, $0.expected) } }

    func didReceiveHead(task: HTTPClient.Task<Outcome>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let status = Int(head.status.code)
        // A 304 or 204 has no body whatever its `Content-Length` says (a 304's is the representation's length).
        let hasBody = status != 304 && status != 204
        let expected = hasBody ? head.headers.first(name: "content-length").flatMap { Int($0) } : nil
        let redirect = [301, 302, 303, 307, 308].contains(status) ? head.headers.first(name: "location") : nil
        if redirect == nil, let expected, expected > limit {
            return task.eventLoop.makeFailedFuture(
                WebImageError(
                    .bodyTooLarge, "Content-Length \(expected) exceeds the limit of \(limit) bytes", url: url))
        }
        state.withLock { state in
            state.status = status
            state.headers = head.headers
            state.expected = expected
            state.redirect = redirect
            if redirect == nil { state.body.reserveCapacity(min(expected ?? 64 * 1024, limit)) }
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Outcome>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let (received, expected) = state.withLock { state -> (Int?, Int?) in
            guard state.redirect == nil else { return (0, nil) }
            guard state.body.count + buffer.readableBytes <= limit else { return (nil, nil) }
            state.body.append(contentsOf: buffer.readableBytesView)
            return (state.body.count, state.expected)
        }
        guard let received else {
            return task.eventLoop.makeFailedFuture(
                WebImageError(
                    .bodyTooLarge, "the body exceeds the limit of \(limit) bytes", url: url))
        }
        if received > 0 {
            progress(received, expected) { self.state.withLock { $0.body } }
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveError(task: HTTPClient.Task<Outcome>, _ error: any Error) {}

    func didFinishRequest(task: HTTPClient.Task<Outcome>) throws -> Outcome {
        try state.withLock { state throws(WebImageError) -> Outcome in
            if let location = state.redirect { return .redirect(location: location) }
            let received = state.body.count
            if let expected = state.expected, received != expected {
                throw WebImageError(
                    .invalidResponse, "received \(received) bytes but Content-Length said \(expected)", url: url)
            }
            var headers = ImageHTTPHeaders()
            for header in state.headers { headers.add(name: header.name, value: header.value) }
            return .response(
                ImageResponse(
                    data: state.body, url: url, httpStatus: state.status, headers: headers,
                    expectedLength: state.expected))
        }
    }
}
