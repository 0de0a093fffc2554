import Logging
import WebImage

/// A log handler that keeps every line (level, message and metadata, rendered) for assertions.
package struct LogCapture: LogHandler {
    /// The lines logged so far (shared by the handler's copies).
    package let lines = Locked<[String]>([])
    /// The handler's metadata.
    package var metadata: Logger.Metadata = [:]
    /// Everything is kept.
    package var logLevel: Logger.Level = .trace

    /// An empty capture.
    package init() {}

    /// A logger writing into this capture.
    package var logger: Logger { Logger(label: "test") { _ in self } }

    /// The handler's metadata value for `key`.
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Keeps the line of `event`.
    package func log(event: LogEvent) {
        let fields = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let line = "\(event.level) \(event.message) " + fields.joined(separator: " ")
        lines.withLock { $0.append(line) }
    }
}
