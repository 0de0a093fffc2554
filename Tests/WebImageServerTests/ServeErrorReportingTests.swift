import AsyncHTTPClient
import Foundation
import Testing
import WebImageServer
import WebImageTesting

/// imgproxy's error reporters on a real `webimage serve` started with only `IMGPROXY_*` variables (and the vendors'
/// endpoint overrides): each vendor gets the download error of a local origin's 404 with its fields, a bad signature
/// is not reported, nothing is sent when no reporter is set, and a dead endpoint changes no answer.
@Suite("Server: webimage serve error reporting", .timeLimit(.minutes(2)))
struct ServeErrorReportingTests {
    static let key = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881"
    static let salt = "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5"

    /// The origin's `/missing.png` (a 404) and `/geometry.png`, signed.
    static func urls(_ base: String, origin: TestImageServer) throws -> (missing: String, image: String, forged: String)
    {
        let signer = try #require(URLSigner(hexKey: key, hexSalt: salt))
        func signed(_ path: String) -> String {
            let source = origin.url(path).absoluteString
            let encoded = source.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? source
            let path = "/w:10/plain/\(encoded)"
            return base + "/" + signer.signature(for: path) + path
        }
        let forged = signed("/missing.png").replacingOccurrences(of: base + "/", with: base + "/AAAA")
        return (signed("/missing.png"), signed("/geometry.png"), forged)
    }

    static func status(_ url: String) async throws -> (Int, String) {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), String(buffer: body))
    }

    static func origin() async throws -> TestImageServer {
        let origin = TestImageServer()
        try await origin.start()
        TestImages.register(on: origin)
        return origin
    }

    @Test func everyVendorGetsTheDownloadErrorAndNoneTheForgedSignature() async throws {
        let origin = try await Self.origin()
        let endpoint = try await FakeReportEndpoint()
        let port = endpoint.port
        _ = try await ServeLifecycleTests.serve(environment: [
            "IMGPROXY_KEY": Self.key, "IMGPROXY_SALT": Self.salt,
            "IMGPROXY_SENTRY_DSN": "http://sentrykey@127.0.0.1:\(port)/42",
            "IMGPROXY_SENTRY_ENVIRONMENT": "e2e", "IMGPROXY_SENTRY_RELEASE": "r1",
            "IMGPROXY_BUGSNAG_KEY": "bugsnagkey", "IMGPROXY_BUGSNAG_STAGE": "stage-e2e",
            "BUGSNAG_NOTIFY_ENDPOINT": "http://127.0.0.1:\(port)/bugsnag",
            "IMGPROXY_HONEYBADGER_KEY": "hbkey", "IMGPROXY_HONEYBADGER_ENV": "hb-e2e",
            "HONEYBADGER_ENDPOINT": "http://127.0.0.1:\(port)/hb",
            "IMGPROXY_AIRBRAKE_PROJECT_ID": "31", "IMGPROXY_AIRBRAKE_PROJECT_KEY": "abkey",
            "IMGPROXY_AIRBRAKE_ENVIRONMENT": "ab-e2e", "WEBIMAGE_AIRBRAKE_ENDPOINT": "http://127.0.0.1:\(port)/ab",
        ]) { base in
            let urls = try Self.urls(base, origin: origin)
            #expect(try await Self.status(urls.forged).0 == 403)
            #expect(try await Self.status(urls.image).0 == 200)
            #expect(try await Self.status(urls.missing) == (404, "source answered 404\n"))
            _ = await endpoint.waitFor(4)
        }
        // The server has stopped: everything it queued was sent.
        let received = endpoint.requests
        await endpoint.stop()
        try await origin.shutdown()
        let byPath = Dictionary(grouping: received, by: \.path)
        #expect(received.count == 4, "\(received.map(\.path))")
        let sentry = try #require(byPath["/api/42/envelope/"]?.first)
        #expect(sentry.headers["x-sentry-auth"]?.contains("sentry_key=sentrykey") == true)
        #expect(sentry.json["environment"] as? String == "e2e")
        #expect(sentry.json["release"] as? String == "r1")
        let values = (sentry.json["exception"] as? [String: Any])?["values"] as? [[String: Any]]
        #expect(values?.first?["type"] as? String == "DownloadError")
        let bugsnag = try #require(byPath["/bugsnag"]?.first)
        #expect(bugsnag.headers["bugsnag-api-key"] == "bugsnagkey")
        let event = (bugsnag.json["events"] as? [[String: Any]])?.first
        #expect((event?["app"] as? [String: Any])?["releaseStage"] as? String == "stage-e2e")
        let honeybadger = try #require(byPath["/hb/v1/notices"]?.first)
        #expect(honeybadger.headers["x-api-key"] == "hbkey")
        #expect((honeybadger.json["server"] as? [String: Any])?["environment_name"] as? String == "hb-e2e")
        let airbrake = try #require(byPath["/ab/api/v3/projects/31/notices"]?.first)
        #expect(airbrake.headers["authorization"] == "Bearer abkey")
        #expect((airbrake.json["context"] as? [String: Any])?["environment"] as? String == "ab-e2e")
        for request in received {
            let text = String(decoding: request.body, as: UTF8.self)
            #expect(text.contains("source answered 404"))
            #expect(text.contains("/_/w:10/plain/"), "\(text)")
            // Never the signature, the key or the salt.
            #expect(!text.contains(Self.key) && !text.contains(Self.salt))
        }
    }

    /// No reporter set (only the endpoints), or a reporter with `IMGPROXY_REPORT_DOWNLOADING_ERRORS=false`.
    @Test(arguments: [[:], ["IMGPROXY_BUGSNAG_KEY": "k", "IMGPROXY_REPORT_DOWNLOADING_ERRORS": "false"]])
    func nothingIsSentWithoutAReporterOrWithoutDownloadingErrors(extra: [String: String]) async throws {
        let origin = try await Self.origin()
        let endpoint = try await FakeReportEndpoint()
        let environment = [
            "IMGPROXY_KEY": Self.key, "IMGPROXY_SALT": Self.salt,
            "BUGSNAG_NOTIFY_ENDPOINT": endpoint.base, "HONEYBADGER_ENDPOINT": endpoint.base,
            "WEBIMAGE_AIRBRAKE_ENDPOINT": endpoint.base,
        ]
        _ = try await ServeLifecycleTests.serve(environment: environment.merging(extra) { $1 }) { base in
            let (status, _) = try await Self.status(Self.urls(base, origin: origin).missing)
            #expect(status == 404)
        }
        let received = endpoint.requests
        await endpoint.stop()
        try await origin.shutdown()
        #expect(received.isEmpty)
    }

    @Test(arguments: [
        (["IMGPROXY_SENTRY_DSN": "not-a-dsn"], "--sentry-dsn"),
        (["IMGPROXY_AIRBRAKE_PROJECT_ID": "abc"], "IMGPROXY_AIRBRAKE_PROJECT_ID"),
        (["BUGSNAG_NOTIFY_ENDPOINT": "ftp://x/"], "--bugsnag-endpoint"),
        (["IMGPROXY_REPORT_DOWNLOADING_ERRORS": "maybe"], "IMGPROXY_REPORT_DOWNLOADING_ERRORS"),
    ])
    func aReporterSettingThatDoesNotParseExits64(environment: [String: String], mentions: String) async throws {
        let (status, error) = try await ServeLifecycleTests.runOffPool([], environment: environment)
        #expect(status == 64, "\(environment): \(error)")
        #expect(error.contains(mentions), "\(error)")
    }

    @Test func aDeadEndpointChangesNoAnswer() async throws {
        let origin = try await Self.origin()
        let errors = try await ServeLifecycleTests.serve(environment: [
            "IMGPROXY_KEY": Self.key, "IMGPROXY_SALT": Self.salt, "IMGPROXY_BUGSNAG_KEY": "k",
            "BUGSNAG_NOTIFY_ENDPOINT": "http://127.0.0.1:1/",
        ]) { base in
            let urls = try Self.urls(base, origin: origin)
            for _ in 0..<3 {
                #expect(try await Self.status(urls.missing) == (404, "source answered 404\n"))
                #expect(try await Self.status(urls.image).0 == 200)
            }
        }
        try await origin.shutdown()
        // One warning for the failures, however many there were.
        let warnings = errors.split(separator: "\n").filter { $0.contains("could not be sent") }
        #expect(warnings.count == 1, "\(errors)")
    }
}
