import Foundation
import Logging

/// How `webimage serve` writes its log lines (imgproxy's `IMGPROXY_LOG_FORMAT`), to standard error.
enum LogFormat: String, Sendable, CaseIterable {
    /// swift-log's lines for people: time, level, label, message, metadata.
    case pretty
    /// One `key=value` line per message (logfmt): `time=… level=info msg="request" status=200 …`.
    case structured
    /// One JSON object per line: `{"time":"…","level":"info","msg":"request","status":"200",…}`.
    case json

    /// A logger with `label` writing in this format.
    func logger(label: String) -> Logger {
        switch self {
        case .pretty: Logger(label: label)
        case .structured, .json: Logger(label: label) { _ in FormattedLogHandler(json: self == .json) }
        }
    }
}

extension ValueParser<LogFormat> {
    /// `pretty`, `structured` or `json`.
    static var logFormat: Self {
        Self(expected: "pretty, structured or json") { text in
            LogFormat(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased())
        }
    }
}

/// A log handler writing each message as one logfmt or JSON line to standard error.
struct FormattedLogHandler: LogHandler {
    /// JSON objects rather than logfmt.
    let json: Bool
    var logLevel = Logger.Level.info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields: [(String, String)] = [
            ("time", Self.timestamp(Date())), ("level", Self.levelName(event.level)), ("msg", "\(event.message)"),
        ]
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        fields += merged.sorted { $0.key < $1.key }.map { ($0.key, "\($0.value)") }
        let line = json ? Self.json(fields) : Self.logfmt(fields)
        FileHandle.standardError.write(Data((line + "\n").utf8))
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
            return "\(key)=" + (plain ? value : quoted(value))
        }.joined(separator: " ")
    }

    /// `fields` as one JSON object, in order.
    static func json(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(quoted($0.0)):\(quoted($0.1))" }.joined(separator: ",") + "}"
    }

    /// `text` in double quotes, with quotes, backslashes and control characters escaped as JSON does.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// `date` in RFC 3339 with milliseconds, UTC.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
