import Foundation
import Logging
import WebImageServer

/// A log handler for `webimage serve`: each message becomes one line in a ``LogFormat``, formatted and written to
/// standard error by ``LogLineWriter/standardError``. Warnings and errors are written before `log` returns.
struct FormattedLogHandler: LogHandler {
    let format: LogFormat
    let label: String
    var logLevel = Logger.Level.info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.isEmpty ? event.metadata ?? [:] : metadata.merging(event.metadata ?? [:]) { $1 }
        let record = LogLineWriter.Record(
            format: format, label: label, date: Date(), level: event.level, message: event.message.description,
            source: event.source, fields: .metadata(merged))
        LogLineWriter.standardError.append(record, waits: event.level >= .warning)
    }

    /// `record` as one line, without its newline.
    static func line(_ record: LogLineWriter.Record, clock: inout LogClock) -> String {
        let fields: [(key: String, value: String)] =
            switch record.fields {
            case .metadata(let metadata): metadata.sorted { $0.key < $1.key }.map { ($0.key, "\($0.value)") }
            case .request(let entry): entry.fields
            }
        switch record.format {
        case .pretty:
            let pretty = fields.isEmpty ? "" : " " + fields.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            let label = record.label.isEmpty ? "" : " " + record.label
            return "\(clock.local(record.date)) \(record.level)\(label):\(pretty) [\(record.source)] \(record.message)"
        case .structured, .json:
            let all =
                [("time", clock.utc(record.date)), ("level", levelName(record.level)), ("msg", record.message)]
                + fields.map { ($0.key, $0.value) }
            return record.format == .json ? json(all) : logfmt(all)
        }
    }

    /// imgproxy's level names: `debug`, `info`, `warn`, `error`.
    static func levelName(_ level: Logger.Level) -> String {
        switch level {
        case .trace, .debug: "debug"
        case .info, .notice: "info"
        case .warning: "warn"
        case .error, .critical: "error"
        }
    }

    /// `fields` as one logfmt line: values with spaces, quotes, `=` or control characters quoted and escaped.
    static func logfmt(_ fields: [(String, String)]) -> String {
        fields.map { key, value in
            let plain = !value.isEmpty && value.unicodeScalars.allSatisfy { $0.value > 0x20 && $0 != "\"" && $0 != "=" }
            return "\(key)=" + (plain ? value : JSONString.quoted(value))
        }.joined(separator: " ")
    }

    /// `fields` as one JSON object, in order.
    static func json(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(JSONString.quoted($0.0)):\(JSONString.quoted($0.1))" }.joined(separator: ",") + "}"
    }
}
