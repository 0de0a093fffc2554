import Dispatch
import Foundation
import Logging
import ServiceLifecycle

/// The hard end of a graceful shutdown: once SIGTERM (or SIGINT) has started it, the process exits with status 0
/// after `deadline` even if requests are still in flight (a source stuck on a hung origin, say).
///
/// `ServiceGroup` cancels the server at `--shutdown-timeout`; a request whose shared work ignores that cancellation
/// could keep the process alive until its own download timeout, and `ServiceGroup`'s cancellation timeout would then
/// stop the process with a trap. This service replaces that trap with a logged, clean exit a little later.
struct ShutdownDeadline: Service {
    /// From the start of the graceful shutdown to the exit.
    let deadline: Duration
    let logger: Logger

    func run() async throws {
        // Returns when the graceful shutdown starts; throws when the group is cancelled first (nothing to do then).
        try await gracefulShutdown()
        let (logger, seconds) = (logger, deadline.inSeconds)
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            logger.warning(
                "requests still in flight at the shutdown deadline; exiting",
                metadata: ["deadline_seconds": "\(seconds)"])
            exit(0)
        }
    }
}
