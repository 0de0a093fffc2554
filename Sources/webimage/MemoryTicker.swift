import Foundation
import Logging
import ServiceLifecycle

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

    /// One `MEMORY USAGE` line: the resident set now and at its peak, in MiB, from `/proc/self/status`.
    private func logStatistics() {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return }
        let fields = Self.kibibytes(in: status, named: ["VmRSS", "VmHWM", "RssAnon"])
        logger.debug(
            "MEMORY USAGE",
            metadata: [
                "rss": "\(fields["VmRSS", default: 0] >> 10)", "max_rss": "\(fields["VmHWM", default: 0] >> 10)",
                "anon_rss": "\(fields["RssAnon", default: 0] >> 10)",
            ])
    }

    /// The `NAME:  1234 kB` lines of a `/proc/PID/status` text whose name is in `names`, in KiB.
    static func kibibytes(in status: String, named names: Set<String>) -> [String: Int] {
        var found: [String: Int] = [:]
        for line in status.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":"), names.contains(String(line[..<colon])) else { continue }
            let number = line[line.index(after: colon)...].split(whereSeparator: \.isWhitespace).first.flatMap {
                Int($0)
            }
            if let number { found[String(line[..<colon])] = number }
        }
        return found
    }
}
