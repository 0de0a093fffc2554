import Dispatch
import NIOCore

/// Turns a host name into the addresses ``SourceAddressPolicy`` checks and the loader then pins its connection to.
///
/// The default asks the system resolver (`getaddrinfo`, blocking) on a Dispatch thread, never on an event loop or
/// a Swift concurrency thread. Tests inject a table instead, so no test ever asks DNS.
struct HostResolver: Sendable {
    private let resolve: @Sendable (String) async throws -> [IPAddress]

    init(_ resolve: @escaping @Sendable (String) async throws -> [IPAddress]) { self.resolve = resolve }

    /// `getaddrinfo` with the same family and socket type NIO's resolver uses.
    static let system = HostResolver { host in
        try await withBlockingCall { () throws(WebImageError) in try IPAddress.lookUp(host, numericOnly: false) }
    }

    /// The addresses of `host`, or a ``WebImageError``: ``WebImageError/Code/timedOut`` past `deadline`,
    /// ``WebImageError/Code/connectionFailed`` when the name does not resolve.
    func addresses(of host: String, deadline: NIODeadline) async throws -> [IPAddress] {
        let remaining = deadline - .now()
        guard remaining > .zero else { throw WebImageError(.timedOut, "timed out before resolving '\(host)'") }
        let addresses = try await withThrowingTaskGroup(of: [IPAddress]?.self) { group in
            group.addTask { try await resolve(host) }
            group.addTask {
                try await Task.sleep(for: .nanoseconds(remaining.nanoseconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let addresses = first else {
                throw WebImageError(.timedOut, "timed out resolving '\(host)'")
            }
            return addresses
        }
        guard !addresses.isEmpty else {
            throw WebImageError(.connectionFailed, "'\(host)' has no IP address")
        }
        return addresses
    }

    /// Runs `body` on a Dispatch thread; a cancelled caller returns at once with `CancellationError` and the call's
    /// result is dropped when it ends.
    static func withBlockingCall<T: Sendable>(
        _ body: @escaping @Sendable () throws(WebImageError) -> T
    ) async throws -> T {
        let waiter = Locked<BlockingCallState<T>>(.notStarted)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let cancelled = waiter.withLock { state -> Bool in
                    guard case .notStarted = state else { return true }
                    state = .waiting(continuation)
                    return false
                }
                if cancelled {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                DispatchQueue.global().async {
                    let result = Result { () throws(WebImageError) in try body() }
                    waiter.withLock { $0.finish() }?.resume(with: result)
                }
            }
        } onCancel: {
            waiter.withLock { $0.finish() }?.resume(throwing: CancellationError())
        }
    }
}

/// Who resumes a blocking call's continuation: whichever of the call and a cancellation comes first.
private enum BlockingCallState<T: Sendable>: Sendable {
    case notStarted
    case waiting(CheckedContinuation<T, any Error>)
    case finished

    /// Marks the call finished and hands out the continuation to resume, if nobody has resumed it yet.
    mutating func finish() -> CheckedContinuation<T, any Error>? {
        defer { self = .finished }
        if case .waiting(let continuation) = self { return continuation }
        return nil
    }
}
