import Foundation
import Logging
import WebImageServer

/// How `webimage serve` writes its log lines (imgproxy's `IMGPROXY_LOG_FORMAT`), to standard error.
enum LogFormat: String, Sendable, CaseIterable {
    /// swift-log's lines for people (its `StreamLogHandler`'s): time, level, label, metadata, source, message.
    case pretty
    /// One `key=value` line per message (logfmt): `time=… level=info msg="request" status=200 …`.
    case structured
    /// One JSON object per line: `{"time":"…","level":"info","msg":"request","status":"200",…}`.
    case json

    /// A logger with `label` writing in this format to standard error, through ``LogLineWriter/standardError``.
    func logger(label: String) -> Logger {
        Logger(label: label) { label in FormattedLogHandler(format: self, label: label) }
    }

    /// A request log writing each entry as `logger(label:)` would log it at `info` from the server, but formatted
    /// on ``LogLineWriter/standardError``'s thread rather than the request's.
    func requestLog(label: String) -> @Sendable (RequestLogEntry) -> Void {
        { entry in
            let record = LogLineWriter.Record(
                format: self, label: label, date: Date(), level: .info, message: "request", source: "WebImageServer",
                fields: .request(entry))
            LogLineWriter.standardError.append(record, waits: false)
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
