import Foundation
import Testing
import WebImageTesting

@testable import WebImage

/// Runs `body` with a started test server and an HTTP loader, shutting both down afterwards.
func withServer<T>(
    _ configuration: HTTPImageLoader.Configuration = .init(),
    _ body: (TestImageServer, HTTPImageLoader) async throws -> T
) async throws -> T {
    let server = TestImageServer()
    try await server.start()
    let loader = HTTPImageLoader(configuration: configuration)
    do {
        let result = try await body(server, loader)
        try await loader.shutdown()
        try await server.shutdown()
        return result
    } catch {
        try? await loader.shutdown()
        try? await server.shutdown()
        throw error
    }
}

/// Runs `body`, expecting a ``WebImageError`` with `code`; returns the error.
@discardableResult
func expectError<T>(
    _ code: WebImageError.Code, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws(WebImageError) -> T
) async -> WebImageError? {
    do {
        let value = try await body()
        Issue.record("expected \(code), got \(value)", sourceLocation: sourceLocation)
        return nil
    } catch {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        return error
    }
}

/// The result of `task`, as a Result.
func outcome(_ task: Task<ImageResponse, any Error>) async -> Result<ImageResponse, WebImageError> {
    do {
        return .success(try await task.value)
    } catch let error as WebImageError {
        return .failure(error)
    } catch {
        return .failure(WebImageError(.invalidArgument, "unexpected \(error)"))
    }
}

/// Records progress calls, thread-safely.
final class ProgressRecorder: Sendable {
    let calls = Locked<[(received: Int, expected: Int?)]>([])
    let partials = Locked<[Int]>([])
    let firstBytes = AsyncStream<Void>.makeStream()

    var handler: ImageLoadProgressHandler {
        { received, expected in
            self.calls.withLock { $0.append((received, expected)) }
            self.firstBytes.continuation.yield()
        }
    }

    var partialHandler: ImagePartialDataHandler { { data in self.partials.withLock { $0.append(data.count) } } }

    /// Returns once some bytes have arrived.
    func waitForBytes() async {
        var iterator = firstBytes.stream.makeAsyncIterator()
        _ = await iterator.next()
    }
}

/// Seconds elapsed while running `body`.
func measure<T>(_ body: () async throws -> T) async rethrows -> (T, Double) {
    let clock = ContinuousClock()
    let start = clock.now
    let value = try await body()
    let elapsed = clock.now - start
    return (value, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}
