import Foundation
import Testing
import WebImage
import WebImageServer
import WebImageTesting

/// imgproxy's fetching variables end to end, on a real `webimage serve` process started with only `IMGPROXY_*`
/// variables and a local origin that records what it is sent: the `User-Agent`, the cookies passed on (and the
/// answers made with them never cached), certificate checks, and the environment file.
@Suite("Serve: the fetching imgproxy variables")
struct ServeFetchingTests {
    @Test(arguments: [
        ([:], "imgproxy/\(FetchSettings.currentVersion)"),
        (
            ["IMGPROXY_USER_AGENT": "acme-proxy/%current_version (images)"],
            "acme-proxy/\(FetchSettings.currentVersion) (images)"
        ),
    ])
    func theOriginSeesTheUserAgent(environment: [String: String], expected: String) async throws {
        let origin = try await Self.origin()
        defer { Task { try? await origin.shutdown() } }
        _ = try await ServeLifecycleTests.serve(environment: environment, arguments: ["--no-cache"]) { base in
            let answer = try await ServeImgproxyEnvironmentTests.get(Self.url(base, origin))
            #expect(answer.status == 200)
        }
        #expect(origin.stats.values(of: "User-Agent", for: "/geometry.png") == [expected])
    }

    @Test func theClientsCookiesReachItsOwnHostAndTheirAnswersAreNeverCached() async throws {
        let origin = try await Self.origin()
        defer { Task { try? await origin.shutdown() } }
        _ = try await ServeLifecycleTests.serve(environment: ["IMGPROXY_COOKIE_PASSTHROUGH": "true"]) { base in
            let url = Self.url(base, origin)
            for cookie in ["session=1; theme=\"dark blue\"", "session=2"] {
                let answer = try await ServeImgproxyEnvironmentTests.get(url, headers: [("Cookie", cookie)])
                #expect(answer.status == 200)
            }
            // Without cookies the answer is made once more, then cached; a request from another host sends none.
            for _ in 0..<2 { _ = try await ServeImgproxyEnvironmentTests.get(url) }
            _ = try await ServeImgproxyEnvironmentTests.get(
                url, headers: [("Cookie", "session=3"), ("X-Forwarded-Host", "images.example")])
        }
        let cookies = origin.stats.values(of: "Cookie", for: "/geometry.png")
        #expect(cookies == ["session=1; theme=\"dark blue\"", "session=2"])
        #expect(origin.requestCount("/geometry.png") == 3)
    }

    @Test(arguments: [("false", 0), ("true", 1)])
    func aCookieBaseURLOfAnotherHostSendsCookiesOnlyWithPassthroughAll(all: String, sent: Int) async throws {
        let origin = try await Self.origin()
        defer { Task { try? await origin.shutdown() } }
        let environment = [
            "IMGPROXY_COOKIE_PASSTHROUGH": "1", "IMGPROXY_COOKIE_PASSTHROUGH_ALL": all,
            "IMGPROXY_COOKIE_BASE_URL": "https://images.example/",
        ]
        _ = try await ServeLifecycleTests.serve(environment: environment, arguments: ["--no-cache"]) { base in
            let answer = try await ServeImgproxyEnvironmentTests.get(
                Self.url(base, origin), headers: [("Cookie", "session=1")])
            #expect(answer.status == 200)
        }
        #expect(origin.stats.values(of: "Cookie", for: "/geometry.png").count == sent)
    }

    /// An HTTPS origin with a self-signed certificate for another name (openssl's `s_server`): refused by default,
    /// answered with `IMGPROXY_IGNORE_SSL_VERIFICATION=true`.
    @Test(arguments: [([String: String](), false), (["IMGPROXY_IGNORE_SSL_VERIFICATION": "true"], true)])
    func certificatesAreCheckedUnlessIgnored(environment: [String: String], answered: Bool) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wis-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = try ImageCoders.default.encode(Image(pixels: TestImages.geometry), as: .png, options: .default)
        try png.write(to: directory.appendingPathComponent("geometry.png"))
        let server = try HTTPSOrigin(directory: directory)
        defer { server.stop() }
        _ = try await ServeLifecycleTests.serve(environment: environment, arguments: ["--no-cache"]) { base in
            let source = "https://127.0.0.1:\(server.port)/geometry.png"
            let answer = try await ServeImgproxyEnvironmentTests.get(base + "/insecure/rs:fit:50:50/plain/" + source)
            #expect((answer.status == 200) == answered, "\(answer.status) \(answer.body)")
        }
    }

    @Test func theEnvironmentFileIsReadFirstAndWinsOverTheEnvironment() async throws {
        let origin = try await Self.origin()
        defer { Task { try? await origin.shutdown() } }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wis-env-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try """
        # imgproxy's local environment file
        export IMGPROXY_TTL=77
        IMGPROXY_USER_AGENT="from-file/${AGENT_SUFFIX}" # a comment
        """.write(to: file, atomically: true, encoding: .utf8)
        let environment = [
            "IMGPROXY_ENV_LOCAL_FILE_PATH": file.path, "IMGPROXY_TTL": "5", "AGENT_SUFFIX": "7",
        ]
        let log = try await ServeLifecycleTests.serve(environment: environment, arguments: ["--no-cache"]) { base in
            let answer = try await ServeImgproxyEnvironmentTests.get(Self.url(base, origin))
            #expect(answer.headers["cache-control"]?.contains("max-age=77") == true, "\(answer.headers)")
        }
        #expect(origin.stats.values(of: "User-Agent", for: "/geometry.png") == ["from-file/7"])
        #expect(!log.contains("not supported"), "\(log)")
    }

    @Test func aMissingEnvironmentFileIsSkippedWithAWarningAsImgproxySkipsIt() async throws {
        let log = try await ServeLifecycleTests.serve(
            environment: ["IMGPROXY_ENV_LOCAL_FILE_PATH": "/nonexistent/imgproxy.env"]
        ) { base in
            let answer = try await ServeImgproxyEnvironmentTests.get(base + "/health")
            #expect(answer.status == 200)
        }
        #expect(log.contains("/nonexistent/imgproxy.env is not a file"), "\(log)")
    }

    /// A started origin with the test images.
    static func origin() async throws -> TestImageServer {
        let origin = TestImageServer()
        try await origin.start()
        TestImages.register(on: origin)
        return origin
    }

    /// A resize of the origin's `geometry.png` on the server at `base`.
    static func url(_ base: String, _ origin: TestImageServer) -> String {
        base + "/insecure/rs:fit:50:50/plain/" + origin.url("/geometry.png").absoluteString
    }
}
