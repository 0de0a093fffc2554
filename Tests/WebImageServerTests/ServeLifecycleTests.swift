import Foundation
import Testing
import WebImageTesting

/// `webimage serve` as a real process: configuration errors at start, graceful shutdown on SIGTERM.
@Suite("Server: webimage serve start-up and shutdown", .timeLimit(.minutes(1)))
struct ServeLifecycleTests {
    /// Runs the binary with `arguments` (and `environment` added) to its end; its status and standard error.
    static func run(
        _ arguments: [String], environment: [String: String] = [:]
    ) throws -> (status: Int32, error: String) {
        let executable = try #require(ServeCommandTests.executable, "webimage was not built next to the tests")
        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve", "--port", "0", "--no-cache"] + arguments
        // Never the AWS variables and files of the machine running the tests.
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("AWS_") }
            .merging([
                "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/webimage-tests/aws-credentials",
                "AWS_CONFIG_FILE": "/nonexistent/webimage-tests/aws-config",
            ]) { $1 }
            .merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        let error = Pipe()
        process.standardError = error
        try process.run()
        let data = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// ``run(_:environment:)`` on a Dispatch thread: the wait for the child process blocks no cooperative thread,
    /// which the origins of the suites running alongside need.
    static func runOffPool(
        _ arguments: [String], environment: [String: String] = [:]
    ) async throws -> (status: Int32, error: String) {
        try await offPool { Result { try run(arguments, environment: environment) } }.get()
    }

    /// Starts `webimage serve` with `environment` and `arguments`, runs `body` with its base URL, stops it and
    /// returns its standard error.
    static func serve(
        environment: [String: String], arguments: [String] = [], _ body: (String) async throws -> Void
    ) async throws -> String {
        let executable = try #require(ServeCommandTests.executable, "webimage was not built next to the tests")
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("wis-serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve", "--port", "0", "--allow-loopback-sources"] + arguments
        process.environment = ["PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": cache.path].merging(environment) { $1 }
        let (output, errors) = (Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        // Blocking reads run off Swift's cooperative threads, which the test origin needs to answer.
        let port = try await ServeLifecycleTests.port(of: output)
        try await body("http://127.0.0.1:\(port)")
        process.terminate()
        return await ServeLifecycleTests.offPool {
            String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }
    }

    /// The port in the `listening on http://HOST:PORT` line a started `webimage serve` wrote to `output`, read on a
    /// Dispatch thread (the wait for the line blocks no cooperative thread).
    static func port(of output: Pipe) async throws -> Int {
        let text = await offPool { ServeCommandTests.firstLine(of: output) }
        return try #require(Int(text.split(separator: ":").last?.prefix { $0.isNumber } ?? ""), "\(text)")
    }

    /// Runs blocking `body` on a Dispatch thread, leaving Swift's cooperative threads free.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: body()) }
        }
    }

    @Test(arguments: [
        (["--key", "zz", "--salt", "00"], "hexadecimal"), (["--key", "00"], "--salt"),
        (["--preset", "bad=w:x"], "width"), (["--timeout", "nan"], "--timeout"),
        (["--no-such-flag"], "no-such-flag"), (["--presets-file", "/nonexistent/presets.txt"], "--presets-file"),
        (["--workers", "0"], "--workers"), (["--local-root", "/nonexistent/root"], "--local-root"),
        (["--cache-dir", "/etc/hostname"], "--cache-dir"), (["--peer-forward"], "--self"),
        (["--peer-forward", "--self", "http://127.0.0.1:8080"], "--peer"),
        (["--self", "ftp://127.0.0.1:8080"], "--self"), (["--preferred-formats", "jpeg,xyz"], "--preferred-formats"),
        (["--preferred-formats", ""], "--preferred-formats"),
        (["--key", "00,11", "--salt", "22"], "as many salts"),
        (["--key", "00", "--salt", "11", "--signature-size", "33"], "--signature-size"),
        (["--memory-cache-size", "9223372036854775807"], "--memory-cache-size"),
        (["--max-src-resolution", "1e300"], "--max-src-resolution"), (["--queue-timeout", "1e300"], "--queue-timeout"),
        (["--max-result-dimension", "-1"], "--max-result-dimension"), (["--max-redirects", "101"], "--max-redirects"),
        (["--log-level", "loud"], "--log-level"), (["--log-format", "xml"], "--log-format"),
        (["--webp-compression", "tiny"], "--webp-compression"), (["--format-quality", "jpeg"], "--format-quality"),
        (["--format-quality", "jpeg=101"], "--format-quality"), (["--quality", "0"], "--quality"),
        (["--png-quantization-colors", "1"], "--png-quantization-colors"), (["--avif-speed", "10"], "--avif-speed"),
        (["--jxl-effort", "0"], "--jxl-effort"), (["--webp-effort", "7"], "--webp-effort"),
        (["--webp-preset", "film"], "--webp-preset"),
        // The watermark and fallback images named by URL are fetched at start, as imgproxy fetches them.
        (["--watermark-url", "http://127.0.0.1:9/wm.png", "--allow-loopback-sources"], "--watermark-url"),
        (["--fallback-image-url", "http://127.0.0.1:9/fb.png", "--allow-loopback-sources"], "--fallback-image-url"),
        (["--watermark-url", "http://127.0.0.1:9/wm.png"], "--watermark-url"),
        (["--skip-processing-formats", "jpeg,bogus"], "--skip-processing-formats"),
        (["--fallback-image-path", "/nonexistent/fallback.png"], "--fallback-image-path"),
        (["--fallback-image-data", "bm9wZQ=="], "--fallback-image-data"),
        (["--fallback-image-data", "%%%"], "--fallback-image-data"),
        (["--fallback-image-url", "ftp://a.example/x.png"], "--fallback-image-url"),
        (["--preset", "big=mrd:10000"], "--allow-security-options"), (["--max-clients", "-1"], "--max-clients"),
        (["--max-animation-frame-resolution", "-1"], "--max-animation-frame-resolution"),
        (["--otel-endpoint", "ftp://127.0.0.1:4318"], "--otel-endpoint"),
        (["--metrics-namespace", "9lives"], "--metrics-namespace"),
        (["--health-check-path", "ping"], "--health-check-path"), (["--server-name", "a\u{7F}"], "--server-name"),
        (["--last-modified-buster", "yesterday"], "--last-modified-buster"),
        (["--s3-addressing", "sideways"], "--s3-addressing"),
        (["--use-s3", "--s3-source-endpoint", "ftp://store"], "--s3-source-endpoint"),
    ])
    func configurationErrorsExit64AtStartWithAClearMessage(arguments: [String], mentions: String) async throws {
        let (status, error) = try await Self.runOffPool(arguments)
        #expect(status == 64, "\(arguments): \(error)")
        #expect(error.contains(mentions), "\(error)")
    }

    @Test(arguments: [
        ("WEBIMAGE_PORT", "abc"), ("WEBIMAGE_AUTO_WEBP", "maybe"), ("WEBIMAGE_MALLOC", "jemalloc"),
        ("WEBIMAGE_TIMEOUT", "soon"), ("IMGPROXY_TTL", "1y"), ("IMGPROXY_BIND", "localhost"),
        ("IMGPROXY_AUTO_WEBP", "maybe"), ("IMGPROXY_LOG_LEVEL", "loud"), ("IMGPROXY_MAX_SRC_RESOLUTION", "big"),
        ("IMGPROXY_LOG_FORMAT", "xml"), ("IMGPROXY_QUALITY", "high"), ("IMGPROXY_ENFORCE_WEBP", "maybe"),
        ("IMGPROXY_FALLBACK_IMAGE_HTTP_CODE", "ok"), ("IMGPROXY_MAX_CLIENTS", "many"),
        ("IMGPROXY_AUTO_JXL", "maybe"), ("IMGPROXY_ENFORCE_JXL", "2"), ("WEBIMAGE_PNG_GAMMA", "yes please"),
        ("IMGPROXY_JXL_EFFORT", "max"), ("IMGPROXY_WEBP_EFFORT", "fast"), ("IMGPROXY_WEBP_PRESET", "film"),
        ("IMGPROXY_S3_ENDPOINT_USE_PATH_STYLE", "maybe"), ("WEBIMAGE_S3_ADDRESSING", "sideways"),
        ("IMGPROXY_S3_USE_DECRYPTION_CLIENT", "maybe"), ("IMGPROXY_S3_ACCESS_POINTS", "photos"),
    ])
    func environmentValuesThatDoNotParseExit64(name: String, value: String) async throws {
        let (status, error) = try await Self.runOffPool([], environment: [name: value])
        #expect(status == 64, "\(name)=\(value): \(error)")
        #expect(error.contains(name), "\(error)")
    }

    @Test(arguments: [
        (["IMGPROXY_WORKERS": "0"], "--workers"), (["IMGPROXY_CONCURRENCY": "0"], "--workers"),
        (["IMGPROXY_WORKERS": "0", "WEBIMAGE_WORKERS": "2"], "--self"),
        (["WEBIMAGE_WORKERS": "0", "IMGPROXY_WORKERS": "2"], "--workers"),
        (["IMGPROXY_MAX_REDIRECTS": "-1"], "--max-redirects"),
        (["IMGPROXY_PRESETS": "a=w:1,b=w:x"], "preset b"),
        (["IMGPROXY_PRESETS_PATH": "/nonexistent"], "--presets-file"),
        (["IMGPROXY_PREFERRED_FORMATS": "png,xyz"], "xyz"),
        (["IMGPROXY_KEY": "00,11", "IMGPROXY_SALT": "22"], "as many salts"),
        (
            ["IMGPROXY_USE_S3": "true", "AWS_ACCESS_KEY_ID": "", "WEBIMAGE_S3_SOURCE_ACCESS_KEY": ""],
            "AWS_ACCESS_KEY_ID"
        ),
        (["WEBIMAGE_USE_S3": "on", "AWS_PROFILE": "nope"], "the AWS profile 'nope' (AWS_PROFILE) is in neither"),
        (["IMGPROXY_USE_S3": "1", "AWS_ACCESS_KEY_ID": "AKID"], "AWS_SECRET_ACCESS_KEY is missing"),
    ])
    func imgproxysVariablesAreReadAfterWebimagesAndTheFlags(
        environment: [String: String], mentions: String
    ) async throws {
        let (status, error) = try await Self.runOffPool(["--peer-forward"], environment: environment)
        #expect(status == 64, "\(environment): \(error)")
        #expect(error.contains(mentions), "\(environment): \(error)")
    }

    @Test func structuredLogsAreKeyValueLines() async throws {
        let (status, error) = try await Self.runOffPool(
            ["--workers", "0", "--log-format", "structured"], environment: ["IMGPROXY_VIDEO_THUMBNAIL_SECOND": "1"])
        #expect(status == 64)
        let line = error.split(separator: "\n").first { $0.contains("not supported") }
        #expect(line?.hasPrefix("time=") == true, "\(error)")
        let expected = " level=warn msg=\"imgproxy settings not supported, ignored: IMGPROXY_VIDEO_THUMBNAIL_SECOND\""
        #expect(line?.contains(expected) == true, "\(error)")
    }

    @Test func unsupportedImgproxyVariablesAreNamedInOneWarningLine() async throws {
        let (status, error) = try await Self.runOffPool(
            ["--workers", "0"],
            environment: [
                "IMGPROXY_VIDEO_THUMBNAIL_SECOND": "1", "IMGPROXY_ZZ_TYPO": "1", "IMGPROXY_TTL": "60",
                // Read now, for s3:// sources: not named.
                "IMGPROXY_S3_ALLOWED_BUCKETS": "a", "IMGPROXY_S3_DENIED_BUCKETS": "b",
                "IMGPROXY_S3_ENDPOINT_USE_PATH_STYLE": "false", "IMGPROXY_S3_ASSUME_ROLE_EXTERNAL_ID": "x",
                "IMGPROXY_ENV_AWS_SSM_PARAMETERS_REGION": "eu-west-1",
            ])
        #expect(status == 64)
        let lines = error.split(separator: "\n").filter { $0.contains("not supported") }
        #expect(lines.count == 1, "\(error)")
        #expect(
            lines.first?.hasSuffix(": IMGPROXY_VIDEO_THUMBNAIL_SECOND, IMGPROXY_ZZ_TYPO (unknown)") == true, "\(error)")
    }

    /// Also on the listener of `--so-reuseport`, which keeps Hummingbird's graceful drain.
    @Test(arguments: [[String](), ["--so-reuseport"]])
    func sigtermFinishesTheRequestInFlightFlushesTheCacheAndExits0(extra: [String]) async throws {
        let executable = try #require(ServeCommandTests.executable, "webimage was not built next to the tests")
        let origin = TestImageServer()
        try await origin.start()
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("wis-term-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let process = Process()
        process.executableURL = executable
        process.arguments =
            [
                "serve", "--port", "0", "--cache-dir", cache.path, "--allow-loopback-sources", "--shutdown-timeout",
                "20",
            ] + extra
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        let port = try await Self.port(of: output)
        let base = "http://127.0.0.1:\(port)"

        // A request whose source the origin holds back until the gate opens.
        let source = origin.url("/fixtures/corpus/images/gen_alpha.png").absoluteString + "?gate=term"
        let encoded = try #require(source.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed))
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = [
            "--silent", "-o", "/dev/null", "-w", "%{http_code}", base + "/insecure/w:20/plain/" + encoded,
        ]
        let curlOutput = Pipe()
        curl.standardOutput = curlOutput
        try curl.run()
        await origin.waitForRequests("/fixtures/corpus/images/gen_alpha.png")

        kill(process.processIdentifier, SIGTERM)
        // New connections are refused once the server has stopped accepting.
        var refused = false
        for _ in 0..<300 where !refused {
            refused = await Self.offPool {
                (try? ServeCommandTests.curl(["-o", "/dev/null", "-w", "%{http_code}", base + "/health"])) == "000"
            }
            if !refused { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(refused, "the server still accepts connections after SIGTERM")
        #expect(process.isRunning, "the server waits for the request in flight")
        origin.openGate("term")
        // Blocking reads wait on a Dispatch thread: the origin's gate runs on Swift's cooperative pool (2 threads here).
        let status = await Self.offPool {
            let data = curlOutput.fileHandleForReading.readDataToEndOfFile()
            curl.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        #expect(status == "200")
        await Self.offPool { process.waitUntilExit() }
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        let entries = try FileManager.default.subpathsOfDirectory(atPath: cache.path).filter { !$0.hasPrefix(".") }
        #expect(entries.count >= 2, "the original and the result are on disk: \(entries)")
        try await origin.shutdown()
    }

    @Test func aRequestStuckPastTheShutdownTimeoutEndsInACleanExit() async throws {
        let executable = try #require(ServeCommandTests.executable, "webimage was not built next to the tests")
        let origin = TestImageServer()
        try await origin.start()
        let process = Process()
        process.executableURL = executable
        process.arguments = [
            "serve", "--port", "0", "--no-cache", "--allow-loopback-sources", "--shutdown-timeout", "1",
            "--download-timeout", "120", "--timeout", "120",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        let port = try await Self.port(of: output)
        // The origin holds the source back for good (its gate is never opened).
        let source = origin.url("/fixtures/corpus/images/gen_alpha.png").absoluteString + "?gate=never"
        let encoded = try #require(source.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed))
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["--silent", "-o", "/dev/null", "http://127.0.0.1:\(port)/insecure/w:20/plain/" + encoded]
        try curl.run()
        await origin.waitForRequests("/fixtures/corpus/images/gen_alpha.png")
        kill(process.processIdentifier, SIGTERM)
        await Self.offPool { process.waitUntilExit() }
        #expect(process.terminationReason == .exit, "not a trap or a signal")
        #expect(process.terminationStatus == 0)
        curl.terminate()
        await Self.offPool { curl.waitUntilExit() }
        origin.openGate("never")
        try await origin.shutdown()
    }

}
