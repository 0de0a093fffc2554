import Foundation
import InMemoryTracing
import Testing
import Tracing
import WebImageTesting

@testable import WebImage

/// The manager's stage spans, recorded with whatever tracer the app has (here one bound to the task), under the
/// caller's span, with the trace passed on to the origin.
@Suite struct ManagerTracingTests {
    @Test func aLoadRecordsItsStagesUnderTheCallersSpanAndPassesItsTraceOn() async throws {
        try await withManager { harness in
            let tracer = InMemoryTracer()
            let url = harness.url("/photo.jpg")
            try await withTracer(tracer) { () async throws in
                try await withSpan("app") { _ in
                    _ = try await harness.manager.image(
                        for: url, options: .waitStoreCache, transformer: CountingTransformer(size: 8))
                }
            }
            let spans = tracer.finishedSpans
            let app = try #require(spans.first { $0.operationName == "app" })
            for stage in ["cache query", "download", "decode", "transform", "store"] {
                let span = spans.first { $0.operationName == stage }
                #expect(span?.traceID == app.traceID, "\(stage): \(spans.map(\.operationName))")
            }
            let download = try #require(spans.first { $0.operationName == "download" })
            #expect(download.kind == .client)
            #expect(download.attributes["server.address"]?.toSpanAttribute() == "127.0.0.1".toSpanAttribute())
            #expect(download.attributes["http.response.status_code"]?.toSpanAttribute() == 200.toSpanAttribute())
            #expect(download.parentSpanID == app.spanID)
            let sent = harness.server.stats.values(of: InMemoryTracer.traceIDKey, for: "/photo.jpg")
            #expect(sent == [app.traceID])
        }
    }

    @Test func aFailedDownloadIsAnErrorSpanWithTheOriginsStatus() async throws {
        try await withManager { harness in
            let tracer = InMemoryTracer()
            await withTracer(tracer) {
                _ = try? await harness.manager.image(for: harness.url("/status/404"))
            }
            let download = try #require(tracer.finishedSpans.first { $0.operationName == "download" })
            #expect(download.status?.code == .error)
            #expect(download.errors.count == 1)
            #expect(download.attributes["http.response.status_code"]?.toSpanAttribute() == 404.toSpanAttribute())
        }
    }

    @Test func withoutATracerNothingIsInjected() async throws {
        try await withManager { harness in
            _ = try await harness.manager.image(for: harness.url("/photo.jpg"))
            let names = harness.server.stats.lastHeaders["/photo.jpg"]?.map { $0.name.lowercased() } ?? []
            #expect(!names.contains("traceparent") && !names.contains(InMemoryTracer.traceIDKey))
        }
    }

    @Test func aLoaderThatDoesNotPropagateSendsNoTraceContext() async throws {
        var configuration = HTTPImageLoader.Configuration()
        configuration.propagatesTraceContext = false
        try await withServer(configuration) { server, loader in
            let tracer = InMemoryTracer()
            try await withTracer(tracer) { () async throws in
                try await withSpan("app") { _ in
                    _ = try await loader.load(server.url("/generated/photo"))
                }
            }
            let names = server.stats.lastHeaders["/generated/photo"]?.map { $0.name.lowercased() } ?? []
            #expect(!names.isEmpty)
            #expect(!names.contains("traceparent") && !names.contains(InMemoryTracer.traceIDKey))
        }
    }
}
