import Foundation
import Testing

/// imgproxy's memory ticker on a real `webimage serve`: `IMGPROXY_FREE_MEMORY_INTERVAL` seconds between two returns of
/// free memory, and with `IMGPROXY_LOG_MEM_STATS` a `MEMORY USAGE` line at debug level at each of them.
@Suite struct ServeMemoryTickerTests {
    @Test func memoryStatisticsAreLoggedAtEachIntervalWhenAsked() async throws {
        let errors = try await ServeLifecycleTests.serve(environment: [
            "IMGPROXY_FREE_MEMORY_INTERVAL": "1", "IMGPROXY_LOG_MEM_STATS": "true", "IMGPROXY_LOG_LEVEL": "debug",
            "IMGPROXY_LOG_FORMAT": "structured",
        ]) { _ in
            // Long enough for two ticks of one second.
            try await Task.sleep(for: .milliseconds(2500))
        }
        let lines = errors.split(separator: "\n").filter { $0.contains("MEMORY USAGE") }
        #expect(lines.count >= 2, "\(errors)")
        let rss = lines.first.flatMap { line in
            line.split(separator: " ").first { $0.hasPrefix("rss=") }.flatMap { Int($0.dropFirst(4)) }
        }
        #expect((rss ?? 0) > 0, "\(lines)")
    }

    @Test func noStatisticsWithoutTheSettingOrBelowDebug() async throws {
        for environment in [
            ["IMGPROXY_FREE_MEMORY_INTERVAL": "1", "IMGPROXY_LOG_LEVEL": "debug"],
            ["IMGPROXY_FREE_MEMORY_INTERVAL": "1", "IMGPROXY_LOG_MEM_STATS": "true"],
        ] {
            let errors = try await ServeLifecycleTests.serve(environment: environment) { _ in
                try await Task.sleep(for: .milliseconds(1500))
            }
            #expect(!errors.contains("MEMORY USAGE"), "\(environment): \(errors)")
            #expect(!errors.contains("not supported"), "\(errors)")
        }
    }

    @Test(arguments: [
        (["IMGPROXY_FREE_MEMORY_INTERVAL": "0"], [String]()), (["IMGPROXY_FREE_MEMORY_INTERVAL": "soon"], []),
        (["IMGPROXY_FREE_MEMORY_INTERVAL": "1.5"], []), (["IMGPROXY_LOG_MEM_STATS": "maybe"], []),
        ([:], ["--free-memory-interval", "-1"]), ([:], ["--free-memory-interval", "1e300"]),
        // Refused after the S3 client exists: it is shut down before the exit (its deinit would trap).
        (
            ["AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test"],
            ["--use-s3", "--s3-source-endpoint", "http://127.0.0.1:9", "--free-memory-interval", "0"]
        ),
    ])
    func aBadIntervalStopsTheStart(environment: [String: String], arguments: [String]) async throws {
        let (status, error) = try await ServeLifecycleTests.runOffPool(arguments, environment: environment)
        #expect(status == 64, "\(environment) \(arguments): \(error)")
        #expect(error.contains("MEMORY") || error.contains("memory") || error.contains("MEM_STATS"), "\(error)")
    }
}
