import Foundation
import Logging
import WebImageServer

/// Log lines to a file descriptor, formatted and written by one background thread in batches, so that logging a
/// request costs its event loop an append under a lock rather than a format and a `write(2)` (issue 29).
///
/// Lines keep their order. A caller that `waits` (``FormattedLogHandler`` does for warnings and errors) returns once
/// its line and every line before it are written, so what explains an exit is never lost; other lines are written
/// within `pause` plus the time to write what came before them: after each batch the thread pauses, so that under
/// load lines gather into large writes and a caller seldom needs to wake it (a wake is a system call, as costly as
/// the write it saves). With `limit` lines waiting, a caller waits for the writer, as a direct write would,
/// rather than let memory grow. ``flush()`` writes everything appended so far; `webimage serve` calls it last.
/// ``route(outputLevel:syslog:)`` sends lines at or above a level to a syslog daemon too, and keeps lines below the
/// output's level from the descriptor.
final class LogLineWriter: @unchecked Sendable {
    // `condition` guards `pending`, `appended`, `written`, `started`, `idle`, `waiters`, `outputLevel` and `syslog`.
    /// One message, as the handler saw it.
    struct Record: Sendable {
        let format: LogFormat
        let label: String
        let date: Date
        let level: Logger.Level
        let message: String
        let source: String
        let fields: Fields
    }

    /// A line's fields: a message's metadata, or a request log entry formatted only on the writer's thread.
    enum Fields: Sendable {
        case metadata(Logger.Metadata)
        case request(RequestLogEntry)
    }

    /// The writer of standard error.
    static let standardError = LogLineWriter(descriptor: STDERR_FILENO)

    private let descriptor: Int32
    private let limit: Int
    private let pause: Duration
    private let condition = NSCondition()
    private var pending: [Record] = []
    private var appended = 0
    private var written = 0
    private var started = false
    /// Whether the thread waits for a line (and must be woken).
    private var idle = false
    /// How many callers wait for lines to be written.
    private var waiters = 0
    /// The least level written to the descriptor.
    private var outputLevel = Logger.Level.trace
    /// The syslog daemon lines at or above its level go to too.
    private var syslog: (writer: SyslogWriter, level: Logger.Level)?

    /// A writer to `descriptor`, letting at most `limit` lines wait, pausing `pause` after each batch.
    init(descriptor: Int32, limit: Int = 10_000, pause: Duration = .milliseconds(2)) {
        self.descriptor = descriptor
        self.limit = max(1, limit)
        self.pause = pause
    }

    /// Queues `record`; with `waits`, returns once it is written.
    func append(_ record: Record, waits: Bool) {
        condition.lock()
        defer { condition.unlock() }
        if !started {
            started = true
            let thread = Thread { [self] in run() }
            thread.name = "webimage.log"
            thread.start()
        }
        if pending.count >= limit { wait { pending.count < limit } }
        pending.append(record)
        appended += 1
        let number = appended
        if idle { condition.broadcast() }
        if waits { wait { written >= number } }
    }

    /// Writes lines at or above `outputLevel` to the descriptor, and lines at or above `syslog`'s level to its daemon.
    func route(outputLevel: Logger.Level, syslog: (writer: SyslogWriter, level: Logger.Level)?) {
        condition.lock()
        defer { condition.unlock() }
        self.outputLevel = outputLevel
        self.syslog = syslog
    }

    /// Returns once every line appended so far is written.
    func flush() {
        condition.lock()
        defer { condition.unlock() }
        let target = appended
        wait { written >= target }
    }

    /// Waits (holding the lock) until `done`, waking the thread first so that it does not pause meanwhile.
    private func wait(until done: () -> Bool) {
        waiters += 1
        defer { waiters -= 1 }
        while !done() {
            condition.broadcast()
            condition.wait()
        }
    }

    private func run() {
        var clock = LogClock()
        while true {
            condition.lock()
            while pending.isEmpty {
                idle = true
                condition.wait()
                idle = false
            }
            let (batch, outputLevel, syslog) = (pending, outputLevel, syslog)
            pending.removeAll(keepingCapacity: true)
            condition.unlock()
            var bytes: [UInt8] = []
            for record in batch {
                let line = FormattedLogHandler.line(record, clock: &clock)
                if record.level >= outputLevel {
                    bytes += line.utf8
                    bytes.append(0x0A)
                }
                if let syslog, record.level >= syslog.level {
                    syslog.writer.send(line, level: record.level, at: record.date)
                }
            }
            write(bytes)
            condition.lock()
            written += batch.count
            let waited = waiters > 0
            if waited { condition.broadcast() }
            condition.unlock()
            if !waited {
                let (seconds, attoseconds) = pause.components
                Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
            }
        }
    }

    /// Writes all of `bytes`, again after a partial write or an interruption; gives up on any other failure (a
    /// closed standard error loses its lines, as a direct write would).
    private func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count > 0 {
                    offset += count
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}
