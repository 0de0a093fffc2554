import NIOConcurrencyHelpers

/// A value that is only reached under a lock; the package's replacement for `Synchronization.Mutex` (the library,
/// the stores and the server all use it, through `package` access).
///
/// Backed by `NIOLock`, a pthread mutex, which ThreadSanitizer understands. `Synchronization.Mutex` on Linux locks
/// through atomics and futexes inside the uninstrumented standard library, so TSan reported every access it guards
/// as a race, and real races were lost in that noise.
///
/// Like `Mutex`, it takes and hands out values as `sending`, so a non-`Sendable` value cannot leak out of it to
/// another thread; that is what makes the `@unchecked Sendable` below sound.
package final class Locked<Value: ~Copyable>: @unchecked Sendable {
    // `lock` guards `value`: it is only touched inside `withLock`.
    private let lock = NIOLock()
    private var value: Value

    package init(_ value: consuming sending Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
