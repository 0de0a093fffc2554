import Foundation

/// Airbrake: one notice per error through the notices API v3 (`api/v3/projects/ID/notices`,
/// `Authorization: Bearer KEY`), with the fields gobrake sets for imgproxy: the error's type and message, the
/// notifier, environment, host name, the request's URL and method, severity `error`, and the "Processing context"
/// in `context` (keys lower case, spaces as `-`). Unlike gobrake, no request header goes in `environment`.
struct AirbrakeReporter: ErrorReporting {
    let projectID: Int
    let key: String
    let environment: String
    let endpoint: URL

    var name: String { "airbrake" }

    func request(for report: ErrorReport) -> VendorRequest {
        let url = endpoint.appendingPathComponent("api").appendingPathComponent("v3")
            .appendingPathComponent("projects").appendingPathComponent(String(projectID))
            .appendingPathComponent("notices")
        return VendorRequest(
            url: url, headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(key)")],
            body: Self.json(notice(report)))
    }

    /// The notice, as Airbrake's notices API v3 documents it.
    func notice(_ report: ErrorReport) -> [String: Any] {
        var context: [String: Any] = [
            "notifier": [
                "name": Self.notifierName, "version": FetchSettings.currentVersion, "url": Self.notifierURL,
            ],
            "environment": environment,
            "hostname": report.serverName,
            "url": report.url,
            "httpMethod": report.method,
            "severity": "error",
        ]
        for (key, value) in report.context {
            context[key.lowercased().replacingOccurrences(of: " ", with: "-")] = value
        }
        return [
            "errors": [["type": report.errorClass, "message": report.message, "backtrace": [[String: Any]]()]],
            "context": context,
            "environment": [String: Any](),
            "session": [String: Any](),
            "params": [String: Any](),
        ]
    }
}
