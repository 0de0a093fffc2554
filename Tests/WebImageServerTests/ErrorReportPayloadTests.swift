import Foundation
import Testing

@testable import WebImageServer

/// Each vendor's payload, field by field as the vendor documents it, and which errors imgproxy reports.
@Suite struct ErrorReportPayloadTests {
    static func sourceFailure(_ status: Int = 404) -> ImageServerError {
        var error = ImageServerError(status: status, "source answered \(status)")
        error.originFailure = .status4xx
        return error
    }

    static let report = ErrorReport(
        sourceFailure(), method: "GET", host: "img.example:8080",
        path: "/SIGNATURE123/rs:fit:300:0/plain/https://user:pw@origin.example/a.jpg?token=s3cret",
        source: URL(string: "https://user:pw@origin.example/a.jpg?token=s3cret"), requestID: "req-1",
        serverName: "node-7", date: Date(timeIntervalSince1970: 1_700_000_000.25))

    @Test func theReportNamesNoSignatureCredentialsOrQuery() {
        let report = Self.report
        #expect(report.url == "http://img.example:8080/_/rs:fit:300:0/plain/https://origin.example/a.jpg")
        #expect(report.sourceURL == "https://origin.example/a.jpg")
        #expect(report.errorClass == "DownloadError")
        #expect(report.message == "source answered 404")
        #expect(report.eventID.count == 32 && report.eventID.allSatisfy(\.isHexDigit))
        #expect(
            report.context == [
                "Status": "404", "Request ID": "req-1", "Source Image URL": "https://origin.example/a.jpg",
                "Source Image Origin": "https://origin.example",
            ])
        #expect(
            ErrorReport.unsignedPath("/sig/w:10/plain/http%3A%2F%2Fa:b@h%2Fx.png%3Fk%3Dv")
                == "/_/w:10/plain/http%3A%2F%2Fh%2Fx.png")
        #expect(ErrorReport.unsignedPath("/sig/w:10/aHR0cDovL2gveC5wbmc.png") == "/_/w:10/aHR0cDovL2gveC5wbmc.png")
        #expect(ErrorReport.unsignedPath("/sig") == "/_")
        #expect(
            ErrorReport.unsignedPath("/sig/w:10/plain/http%3A%2F%2Fa%3Ab%40h%3A80%2Fx.png")
                == "/_/w:10/plain/http%3A%2F%2Fh%3A80%2Fx.png")
        #expect(ErrorReport.unsignedPath("/sig/w:10/plain/local:///a@2x.png") == "/_/w:10/plain/local:///a@2x.png")
    }

    @Test func sentryEnvelopeCarriesTheEventAndTheAuthHeader() throws {
        let dsn = try #require(SentryDSN("https://pubkey@sentry.example:9000/prefix/42"))
        #expect(dsn.envelopeURL.absoluteString == "https://sentry.example:9000/prefix/api/42/envelope/")
        let reporter = SentryReporter(dsn: dsn, environment: "staging", release: "webimage@9")
        let request = reporter.request(for: Self.report)
        #expect(request.url == dsn.envelopeURL)
        let headers = Dictionary(uniqueKeysWithValues: request.headers)
        #expect(headers["Content-Type"] == "application/x-sentry-envelope")
        #expect(headers["X-Sentry-Auth"]?.hasPrefix("Sentry sentry_version=7, sentry_client=webimage/") == true)
        #expect(headers["X-Sentry-Auth"]?.hasSuffix(", sentry_key=pubkey") == true)
        let lines = request.body.split(separator: 0x0A).map { Data($0) }
        try #require(lines.count == 3)
        let envelope = try #require(try JSONSerialization.jsonObject(with: lines[0]) as? [String: Any])
        #expect(envelope["event_id"] as? String == Self.report.eventID)
        let item = try #require(try JSONSerialization.jsonObject(with: lines[1]) as? [String: Any])
        #expect(item["type"] as? String == "event")
        #expect(item["length"] as? Int == lines[2].count)
        let event = try #require(try JSONSerialization.jsonObject(with: lines[2]) as? [String: Any])
        #expect(event["event_id"] as? String == Self.report.eventID)
        #expect(event["level"] as? String == "error")
        #expect(event["environment"] as? String == "staging")
        #expect(event["release"] as? String == "webimage@9")
        #expect(event["server_name"] as? String == "node-7")
        #expect((event["timestamp"] as? String)?.hasPrefix("2023-11-14T22:13:20.25") == true)
        let exception = (event["exception"] as? [String: Any])?["values"] as? [[String: Any]]
        #expect(exception?.first?["type"] as? String == "DownloadError")
        #expect(exception?.first?["value"] as? String == "source answered 404")
        let http = event["request"] as? [String: Any]
        #expect(http?["url"] as? String == Self.report.url)
        #expect(http?["method"] as? String == "GET")
        let context = (event["contexts"] as? [String: Any])?["Processing context"] as? [String: Any]
        #expect(context?["Request ID"] as? String == "req-1")
        #expect(!String(decoding: request.body, as: UTF8.self).contains("s3cret"))
        #expect(!String(decoding: request.body, as: UTF8.self).contains("SIGNATURE123"))
    }

    @Test(arguments: [
        "", "pubkey@sentry.example/42", "ftp://k@sentry.example/42", "https://sentry.example/42",
        "https://k@sentry.example/", "https://k@sentry.example/4 2",
    ])
    func aDSNWithoutKeyHostOrProjectIsRefused(_ text: String) {
        #expect(SentryDSN(text) == nil)
    }

    @Test func bugsnagEventIsPayloadVersion5() throws {
        let endpoint = try #require(URL(string: "https://notify.bugsnag.com/"))
        let request = BugsnagReporter(key: "bkey", stage: "beta", endpoint: endpoint).request(for: Self.report)
        #expect(request.url == endpoint)
        let headers = Dictionary(uniqueKeysWithValues: request.headers)
        #expect(headers["Bugsnag-Api-Key"] == "bkey")
        #expect(headers["Bugsnag-Payload-Version"] == "5")
        #expect(headers["Bugsnag-Sent-At"] == "2023-11-14T22:13:20.250Z")
        let payload = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
        #expect(payload["apiKey"] as? String == "bkey")
        #expect(payload["payloadVersion"] as? String == "5")
        #expect((payload["notifier"] as? [String: Any])?["name"] as? String == "webimage")
        let event = try #require((payload["events"] as? [[String: Any]])?.first)
        let exception = (event["exceptions"] as? [[String: Any]])?.first
        #expect(exception?["errorClass"] as? String == "DownloadError")
        #expect(exception?["message"] as? String == "source answered 404")
        #expect(event["severity"] as? String == "error")
        #expect(event["unhandled"] as? Bool == false)
        #expect((event["app"] as? [String: Any])?["releaseStage"] as? String == "beta")
        #expect((event["device"] as? [String: Any])?["hostname"] as? String == "node-7")
        #expect((event["request"] as? [String: Any])?["url"] as? String == Self.report.url)
        #expect((event["request"] as? [String: Any])?["httpMethod"] as? String == "GET")
        let meta = (event["metaData"] as? [String: Any])?["Processing Context"] as? [String: Any]
        #expect(meta?["Source Image Origin"] as? String == "https://origin.example")
    }

    @Test func honeybadgerNoticeGoesToV1Notices() throws {
        let endpoint = try #require(URL(string: "https://api.honeybadger.io"))
        let request = HoneybadgerReporter(key: "hkey", environment: "prod-eu", endpoint: endpoint)
            .request(for: Self.report)
        #expect(request.url.absoluteString == "https://api.honeybadger.io/v1/notices")
        #expect(Dictionary(uniqueKeysWithValues: request.headers)["X-API-Key"] == "hkey")
        let notice = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
        let error = notice["error"] as? [String: Any]
        #expect(error?["class"] as? String == "DownloadError")
        #expect(error?["message"] as? String == "source answered 404")
        let http = notice["request"] as? [String: Any]
        #expect(http?["url"] as? String == Self.report.url)
        let cgi = http?["cgi_data"] as? [String: Any]
        #expect(cgi?["REQUEST_METHOD"] as? String == "GET")
        #expect(cgi?["REQUEST_ID"] as? String == "req-1")
        #expect(cgi?["SOURCE_IMAGE_URL"] as? String == "https://origin.example/a.jpg")
        let server = notice["server"] as? [String: Any]
        #expect(server?["environment_name"] as? String == "prod-eu")
        #expect(server?["hostname"] as? String == "node-7")
    }

    @Test func airbrakeNoticeGoesToTheProjectsNotices() throws {
        let endpoint = try #require(URL(string: "https://api.airbrake.io"))
        let request = AirbrakeReporter(projectID: 77, key: "akey", environment: "qa", endpoint: endpoint)
            .request(for: Self.report)
        #expect(request.url.absoluteString == "https://api.airbrake.io/api/v3/projects/77/notices")
        #expect(Dictionary(uniqueKeysWithValues: request.headers)["Authorization"] == "Bearer akey")
        let notice = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
        let error = (notice["errors"] as? [[String: Any]])?.first
        #expect(error?["type"] as? String == "DownloadError")
        #expect(error?["message"] as? String == "source answered 404")
        let context = notice["context"] as? [String: Any]
        #expect(context?["environment"] as? String == "qa")
        #expect(context?["hostname"] as? String == "node-7")
        #expect(context?["url"] as? String == Self.report.url)
        #expect(context?["httpMethod"] as? String == "GET")
        #expect(context?["severity"] as? String == "error")
        #expect(context?["request-id"] as? String == "req-1")
        #expect((context?["notifier"] as? [String: Any])?["name"] as? String == "webimage")
    }

    @Test func imgproxyReportsDownloadsOnlyWhenAskedAndNeverAClientsMistake() {
        var cancelled = ImageServerError(status: 503, "request cancelled")
        cancelled.originFailure = .cancelled
        var unreadable = ImageServerError(status: 422, "source image format is not supported")
        unreadable.isUnreadableSource = true
        var undecodable = ImageServerError(status: 422, "source image cannot be processed")
        undecodable.isProcessingFailure = true
        let cases: [(ImageServerError, withDownloads: Bool, without: Bool)] = [
            (Self.sourceFailure(), true, false),
            (unreadable, true, false),
            (cancelled, false, false),
            (undecodable, true, true),
            (ImageServerError(status: 500, "internal"), true, true),
            (ImageServerError(status: 403, "invalid signature"), false, false),
            (ImageServerError(status: 404, "invalid path"), false, false),
            (ImageServerError(status: 422, "source image resolution is too big"), false, false),
            (ImageServerError(status: 503, "server is busy", retryAfter: 1), false, false),
            (ImageServerError(status: 503, "request timed out"), false, false),
        ]
        for (error, withDownloads, without) in cases {
            #expect(error.isReported(downloadingErrors: true) == withDownloads, "\(error)")
            #expect(error.isReported(downloadingErrors: false) == without, "\(error)")
        }
    }

    @Test(arguments: [
        "sentry-dsn", "bugsnag-endpoint", "error-report-queue", "error-report-timeout",
    ])
    func aSettingOutOfRangeStopsTheServer(setting: String) {
        var configuration = ImageServerConfiguration()
        switch setting {
        case "sentry-dsn": configuration.errorReporting.sentryDSN = "https://sentry.example/1"
        case "bugsnag-endpoint": configuration.errorReporting.bugsnagEndpoint = URL(fileURLWithPath: "/x")
        case "error-report-queue": configuration.errorReporting.queueLimit = 0
        default: configuration.errorReporting.timeout = .zero
        }
        do {
            try configuration.validate()
            Issue.record("\(setting) was accepted")
        } catch {
            #expect(error.setting == setting)
        }
    }
}
