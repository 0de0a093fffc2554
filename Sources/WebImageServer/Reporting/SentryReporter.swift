import Foundation

/// Sentry: one event per error in an envelope to the DSN's project (`/api/PROJECT_ID/envelope/`, `X-Sentry-Auth`),
/// with the fields sentry-go sets for imgproxy: the exception's type and value, level `error`, the request's URL and
/// method, `server_name`, `release`, `environment`, and the "Processing context".
struct SentryReporter: ErrorReporting {
    let dsn: SentryDSN
    let environment: String
    let release: String

    var name: String { "sentry" }

    func request(for report: ErrorReport) -> VendorRequest {
        let sentAt = ISO8601.format(report.date)
        let event = Self.json(event(report))
        var body = Self.json(["event_id": report.eventID, "sent_at": sentAt])
        body.append(0x0A)
        body.append(Self.json(["type": "event", "length": event.count]))
        body.append(0x0A)
        body.append(event)
        body.append(0x0A)
        let client = "\(Self.notifierName)/\(FetchSettings.currentVersion)"
        return VendorRequest(
            url: dsn.envelopeURL,
            headers: [
                ("Content-Type", "application/x-sentry-envelope"),
                ("X-Sentry-Auth", dsn.authHeader(client: client)),
            ],
            body: body)
    }

    /// The event, as Sentry's event payload documents it.
    func event(_ report: ErrorReport) -> [String: Any] {
        [
            "event_id": report.eventID,
            "timestamp": ISO8601.format(report.date),
            "level": "error",
            "platform": "other",
            "logger": Self.notifierName,
            "server_name": report.serverName,
            "release": release,
            "environment": environment,
            "sdk": ["name": Self.notifierName, "version": FetchSettings.currentVersion],
            "exception": ["values": [["type": report.errorClass, "value": report.message]]],
            "request": ["url": report.url, "method": report.method],
            "contexts": ["Processing context": report.context],
        ]
    }
}
