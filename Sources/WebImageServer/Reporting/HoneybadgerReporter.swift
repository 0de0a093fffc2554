import Foundation

/// Honeybadger: one notice per error through the notices API (`v1/notices`, `X-API-Key`), with the fields
/// honeybadger-go sets for imgproxy: the error's class and message, the request's URL, its method and the
/// "Processing context" in `cgi_data` (keys upper case, `-` and spaces as `_`), the environment and the host name.
/// Unlike imgproxy, no request header is sent (they would carry the client's cookies and credentials).
struct HoneybadgerReporter: ErrorReporting {
    let key: String
    let environment: String
    let endpoint: URL

    var name: String { "honeybadger" }

    func request(for report: ErrorReport) -> VendorRequest {
        VendorRequest(
            url: endpoint.appendingPathComponent("v1").appendingPathComponent("notices"),
            headers: [("Content-Type", "application/json"), ("Accept", "application/json"), ("X-API-Key", key)],
            body: Self.json(notice(report)))
    }

    /// The notice, as Honeybadger's notices API documents it.
    func notice(_ report: ErrorReport) -> [String: Any] {
        var cgi = ["REQUEST_METHOD": report.method]
        for (key, value) in report.context {
            cgi[key.uppercased().replacingOccurrences(of: "-", with: "_").replacingOccurrences(of: " ", with: "_")] =
                value
        }
        return [
            "notifier": [
                "name": Self.notifierName, "url": Self.notifierURL, "version": FetchSettings.currentVersion,
            ],
            "error": [
                "class": report.errorClass, "message": report.message, "backtrace": [[String: Any]](),
            ],
            "request": ["url": report.url, "cgi_data": cgi, "context": [String: Any]()],
            "server": ["environment_name": environment, "hostname": report.serverName],
        ]
    }
}
