import Foundation
import Testing
import WebImageTesting

@testable import WebImageServer

/// The counterparts of libvips' debugging switches on a real `webimage serve` started with imgproxy's variables:
/// `IMGPROXY_VIPS_CACHE_TRACE` (a `cache trace` line for each lookup and store of the result tiers) and
/// `IMGPROXY_VIPS_LEAK_CHECK` (a `leak check` line after the shutdown).
@Suite("Server: libvips' debugging switches", .timeLimit(.minutes(2)))
struct ServeVipsDebuggingTests {
    @Test func theCacheTraceLogsTheMissTheStoresAndTheHits() async throws {
        let origin = try await ServeErrorReportingTests.origin()
        let errors = try await ServeLifecycleTests.serve(environment: ["IMGPROXY_VIPS_CACHE_TRACE": "true"]) { base in
            let url = base + "/insecure/w:10/plain/" + origin.url("/geometry.png").absoluteString
            for _ in 0..<2 {
                let status = try await ServeErrorReportingTests.status(url).0
                #expect(status == 200)
            }
        }
        try await origin.shutdown()
        let trace = errors.split(separator: "\n").filter { $0.contains("cache trace") }
        #expect(trace.count == 4, "\(errors)")
        #expect(trace.first?.contains("event=miss") == true, "\(trace)")
        #expect(trace.contains { $0.contains("event=store") && $0.contains("tier=memory") }, "\(trace)")
        #expect(trace.contains { $0.contains("event=store") && $0.contains("tier=disk") }, "\(trace)")
        #expect(trace.last?.contains("event=hit") == true && trace.last?.contains("tier=memory") == true, "\(trace)")
        // Every line names the same result.
        let keys = Set(trace.compactMap { line in line.split(separator: " ").first { $0.hasPrefix("key=") } })
        #expect(keys.count == 1, "\(trace)")
    }

    @Test func noTraceAndNoLeakCheckByDefault() async throws {
        let origin = try await ServeErrorReportingTests.origin()
        let errors = try await ServeLifecycleTests.serve(environment: [:]) { base in
            let url = base + "/insecure/w:10/plain/" + origin.url("/geometry.png").absoluteString
            let status = try await ServeErrorReportingTests.status(url).0
            #expect(status == 200)
        }
        try await origin.shutdown()
        #expect(!errors.contains("cache trace"), "\(errors)")
        #expect(!errors.contains("leak check"), "\(errors)")
    }

    @Test func theLeakCheckReportsNothingHeldAfterAGracefulShutdown() async throws {
        let origin = try await ServeErrorReportingTests.origin()
        let errors = try await ServeLifecycleTests.serve(environment: ["IMGPROXY_VIPS_LEAK_CHECK": "1"]) { base in
            let url = base + "/insecure/w:10/plain/" + origin.url("/geometry.png").absoluteString
            let status = try await ServeErrorReportingTests.status(url).0
            #expect(status == 200)
        }
        try await origin.shutdown()
        let line = try #require(errors.split(separator: "\n").first { $0.contains("leak check") }, "\(errors)")
        #expect(line.contains("nothing held"), "\(line)")
        #expect(line.contains("requests_in_progress=0") && line.contains("result_runs=0"), "\(line)")
        let peak = line.split(separator: " ").first { $0.hasPrefix("max_rss=") }.flatMap { Int($0.dropFirst(8)) }
        #expect((peak ?? 0) > 0, "\(line)")
        #expect(!errors.contains("not supported"), "\(errors)")
    }

    @Test func aLeakIsAWarningWithItsCounts() {
        let capture = LogCapture()
        LeakCheck(requests: 1, images: 0, processing: 2, runs: 1, memory: nil).log(to: capture.logger)
        LeakCheck(requests: 0, images: 0, processing: 0, runs: 0, memory: nil).log(to: capture.logger)
        let lines = capture.lines.withLock { $0 }
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("warning leak check: 4 still held") == true, "\(lines)")
        #expect(lines.first?.contains("processing_runs=2") == true, "\(lines)")
        #expect(lines.last?.hasPrefix("info leak check: nothing held") == true, "\(lines)")
    }

    @Test func processMemoryReadsTheStatusFields() {
        let status = "Name:\twebimage\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\nRssAnon:\t   51200 kB\nThreads:\t4\n"
        #expect(
            ProcessMemory(status: status)
                == ProcessMemory(status: "VmRSS: 102400 kB\nVmHWM: 204800 kB\nRssAnon: 51200 kB"))
        let memory = ProcessMemory(status: status)
        #expect((memory.rss, memory.maxRSS, memory.anonymousRSS) == (102_400, 204_800, 51_200))
        #expect(ProcessMemory(status: "nothing here").maxRSS == 0)
        #expect((ProcessMemory.current()?.maxRSS ?? 0) > 0)
    }
}
