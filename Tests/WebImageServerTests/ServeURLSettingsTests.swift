import Foundation
import Testing
import WebImageTesting

/// imgproxy's source URL variables end to end, on a real `webimage serve` process started with only `IMGPROXY_*`
/// variables: the rewritten sources are fetched from a local origin, and still pass the allowed sources and the
/// address checks.
@Suite("Serve: the source URL imgproxy variables")
struct ServeURLSettingsTests {
    @Test func theBaseURLAndTheReplacementsNameTheOrigin() async throws {
        let origin = try await ServeFetchingTests.origin()
        defer { Task { try? await origin.shutdown() } }
        let base = origin.baseURL.absoluteString + "/"
        let environment = [
            "IMGPROXY_BASE_URL": base, "IMGPROXY_URL_REPLACEMENTS": "img://*/=\(base)$1.",
            "IMGPROXY_BASE64_URL_INCLUDES_FILENAME": "true",
        ]
        _ = try await ServeLifecycleTests.serve(environment: environment, arguments: ["--no-cache"]) { server in
            let encoded = Data("geometry.png".utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
            for path in ["plain/geometry.png", "plain/img://geometry/png", encoded + "/cat.png"] {
                let answer = try await ServeImgproxyEnvironmentTests.get(server + "/insecure/rs:fit:50:50/" + path)
                #expect(answer.status == 200, "\(path): \(answer.body)")
            }
        }
        #expect(origin.requestCount("/geometry.png") == 3)
    }

    @Test func rewrittenSourcesStillPassTheSourceRules() async throws {
        let origin = try await ServeFetchingTests.origin()
        defer { Task { try? await origin.shutdown() } }
        let environment = [
            "IMGPROXY_URL_REPLACEMENTS": "meta://=http://169.254.169.254/;own://=\(origin.baseURL.absoluteString)/",
            "IMGPROXY_ALLOWED_SOURCES": "http://169.254.169.254/",
        ]
        _ = try await ServeLifecycleTests.serve(environment: environment, arguments: ["--no-cache"]) { server in
            for path in ["plain/meta://latest/meta-data", "plain/own://geometry.png"] {
                let answer = try await ServeImgproxyEnvironmentTests.get(server + "/insecure/rs:fit:50:50/" + path)
                #expect(answer.status == 404, "\(path): \(answer.body)")
            }
        }
        #expect(origin.stats.total == 0)
    }

    @Test func anImgproxy3NameStopsTheStartWithFailOnDeprecation() async throws {
        let failing = try await ServeLifecycleTests.runOffPool(
            [], environment: ["IMGPROXY_WRITE_TIMEOUT": "10", "IMGPROXY_FAIL_ON_DEPRECATION": "true"])
        #expect(failing.status == 64)
        let message = "IMGPROXY_WRITE_TIMEOUT is deprecated, use IMGPROXY_TIMEOUT"
        #expect(failing.error.contains(message), "\(failing.error)")
        let log = try await ServeLifecycleTests.serve(environment: ["IMGPROXY_CONCURRENCY": "2"]) { _ in }
        #expect(log.contains("IMGPROXY_CONCURRENCY is deprecated, use IMGPROXY_WORKERS"), "\(log)")
    }

    @Test func anArgumentsSeparatorSplitsURLsAndPresets() async throws {
        let origin = try await ServeFetchingTests.origin()
        defer { Task { try? await origin.shutdown() } }
        let environment = ["IMGPROXY_ARGUMENTS_SEPARATOR": "~", "IMGPROXY_PRESETS": "thumb=rs~fit~40~40"]
        _ = try await ServeLifecycleTests.serve(environment: environment, arguments: ["--no-cache"]) { server in
            let source = origin.url("/geometry.png").absoluteString
            for (options, status) in [("rs~fit~50~50", 200), ("pr~thumb", 200), ("rs:fit:50:50", 404)] {
                let answer = try await ServeImgproxyEnvironmentTests.get(
                    server + "/insecure/\(options)/plain/" + source + "@png")
                #expect(answer.status == status, "\(options): \(answer.body)")
            }
        }
    }

    /// `webimage url` writes the canonical URL with the server's separator, which the server then answers.
    @Test func webimageURLWritesTheServersSeparator() async throws {
        let origin = try await ServeFetchingTests.origin()
        defer { Task { try? await origin.shutdown() } }
        let executable = try #require(ServeCommandTests.executable, "webimage was not built next to the tests")
        let source = origin.url("/geometry.png").absoluteString
        let path = await ServeLifecycleTests.offPool { () -> String in
            let process = Process()
            process.executableURL = executable
            process.arguments = ["url", source, "rs~fill~40~30/q~70", "--preset", "x=w~5"]
            process.environment = ["PATH": "/usr/bin:/bin", "IMGPROXY_ARGUMENTS_SEPARATOR": "~"]
            let output = Pipe()
            process.standardOutput = output
            guard (try? process.run()) != nil else { return "" }
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(path.hasPrefix("/insecure/resizing_type~fill/width~40/height~30/quality~70/"), "\(path)")
        _ = try await ServeLifecycleTests.serve(
            environment: ["IMGPROXY_ARGUMENTS_SEPARATOR": "~"], arguments: ["--no-cache"]
        ) { server in
            let answer = try await ServeImgproxyEnvironmentTests.get(server + path)
            #expect(answer.status == 200, "\(path): \(answer.body)")
        }
    }
}
