import NIOConcurrencyHelpers

/// A value that is only reached under a lock; the library's replacement for `Synchronization.Mutex`.
///
/// Backed by `NIOLock`, a pthread mutex, which ThreadSanitizer understands. `Synchronization.Mutex` on Linux locks
/// through atomics and futexes inside the uninstrumented standard library, so TSan reported every access it guards
/// as a race, and real races were lost in that noise.
final class Locked<Value: ~Copyable>: @unchecked Sendable {
    // `lock` guards `value`: it is only touched inside `withLock`.
    private let lock = NIOLock()
    private var value: Value

    init(_ value: consuming Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
