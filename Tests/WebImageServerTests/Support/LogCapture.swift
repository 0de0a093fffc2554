import Logging
import WebImage

/// A log handler that keeps every line (message and metadata, rendered) for assertions.
struct LogCapture: LogHandler {
    /// The lines logged so far (shared by the handler's copies).
    let lines = Locked<[String]>([])
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    /// A logger writing into this capture.
    var logger: Logger { Logger(label: "test") { _ in self } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let fields = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let line = "\(event.level) \(event.message) " + fields.joined(separator: " ")
        lines.withLock { $0.append(line) }
    }
}
