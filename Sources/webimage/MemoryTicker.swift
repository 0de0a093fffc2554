import Foundation
import Logging
import ServiceLifecycle
import WebImageServer

/// imgproxy's memory ticker (`startMemoryTicker` in its `imgproxy.go`): every `interval` the allocator's free memory
/// goes back to the system (``MemoryAllocator/releaseFreeMemory()``, glibc's `malloc_trim(0)`, which imgproxy calls
/// too), and with `logsStatistics` the process's resident memory is logged at `debug`, as imgproxy logs its memory
/// statistics (`IMGPROXY_LOG_MEM_STATS`). The server also releases free memory once processing has rested for a
/// second (``ImageServerConfiguration/whenIdle``); the ticker bounds what a server that never rests keeps.
struct MemoryTicker: Service {
    let interval: Duration
    let logsStatistics: Bool
    let logger: Logger

    func run() async throws {
        // Returns at the graceful shutdown or a cancellation: the ticker holds nothing to finish.
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { return }
                MemoryAllocator.releaseFreeMemory()
                if logsStatistics, logger.logLevel <= .debug { logStatistics() }
            }
        }
    }

    /// One `MEMORY USAGE` line: the resident set now and at its peak, in MiB.
    private func logStatistics() {
        guard let memory = ProcessMemory.current() else { return }
        logger.debug(
            "MEMORY USAGE",
            metadata: [
                "rss": "\(memory.rss >> 10)", "max_rss": "\(memory.maxRSS >> 10)",
                "anon_rss": "\(memory.anonymousRSS >> 10)",
            ])
    }
}
