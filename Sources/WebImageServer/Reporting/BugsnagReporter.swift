import Foundation

/// Bugsnag: one event per error through the Error Reporting API (payload version 5, `Bugsnag-Api-Key`,
/// `Bugsnag-Payload-Version`, `Bugsnag-Sent-At`), with the fields bugsnag-go sets for imgproxy: the exception's
/// class and message, a handled error of severity `error`, the release stage, the request's URL and method, the
/// host name and the "Processing Context" tab.
struct BugsnagReporter: ErrorReporting {
    let key: String
    let stage: String
    let endpoint: URL

    var name: String { "bugsnag" }

    func request(for report: ErrorReport) -> VendorRequest {
        VendorRequest(
            url: endpoint,
            headers: [
                ("Content-Type", "application/json"),
                ("Bugsnag-Api-Key", key),
                ("Bugsnag-Payload-Version", "5"),
                ("Bugsnag-Sent-At", ISO8601.format(report.date)),
            ],
            body: Self.json(payload(report)))
    }

    /// The payload, as Bugsnag's Error Reporting API documents it.
    func payload(_ report: ErrorReport) -> [String: Any] {
        let event: [String: Any] = [
            "exceptions": [
                ["errorClass": report.errorClass, "message": report.message, "stacktrace": [[String: Any]]()]
            ],
            "severity": "error",
            "unhandled": false,
            "severityReason": ["type": "handledError"],
            "context": "\(report.method) \(URL(string: report.url)?.path ?? report.url)",
            "app": ["releaseStage": stage, "version": FetchSettings.currentVersion],
            "device": ["hostname": report.serverName, "time": ISO8601.format(report.date)],
            "request": ["url": report.url, "httpMethod": report.method],
            "metaData": ["Processing Context": report.context],
        ]
        return [
            "apiKey": key,
            "payloadVersion": "5",
            "notifier": [
                "name": Self.notifierName, "version": FetchSettings.currentVersion, "url": Self.notifierURL,
            ],
            "events": [event],
        ]
    }
}
