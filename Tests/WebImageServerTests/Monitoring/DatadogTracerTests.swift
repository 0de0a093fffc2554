import Foundation
import Logging
import Testing
import Tracing

@testable import WebImageServer

/// The Datadog tracer without an agent: a caller's `x-datadog-*` trace continued, imgproxy's names and tags on the
/// spans it keeps, the headers it writes for an origin.
@Suite struct DatadogTracerTests {
    struct Headers: Extractor, Injector {
        func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
        func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) { carrier[key] = value }
    }

    static func tracer() -> DatadogTracer {
        DatadogTracer(
            agent: URL(string: "http://127.0.0.1:9")!, service: "imgproxy", environment: "prod", version: "4.0",
            logger: Logger(label: "test"))
    }

    @Test func aCallersTraceIsContinuedUnderImgproxysNames() throws {
        let tracer = Self.tracer()
        var context = ServiceContext.topLevel
        tracer.extract(
            ["x-datadog-trace-id": "123", "x-datadog-parent-id": "456", "x-datadog-sampling-priority": "2"],
            into: &context, using: Headers())
        let request = tracer.startSpan("GET /**", context: context, ofKind: .server)
        request.attributes["http.request.method"] = "GET"
        request.attributes["url.path"] = "/insecure/w:10/plain/a.png"
        request.attributes["http.response.status_code"] = 200
        let fetch = tracer.startSpan("source fetch", context: request.context, ofKind: .internal)
        fetch.attributes["imgproxy.source_image_url"] = "http://origin:8080/a.png"
        fetch.recordError(CancellationError())
        fetch.end()
        let processing = tracer.startSpan("processing", context: request.context, ofKind: .internal)
        let decode = tracer.startSpan("Scale On Load", context: processing.context, ofKind: .internal)
        decode.end()
        processing.end()
        var origin: [String: String] = [:]
        tracer.inject(processing.context, into: &origin, using: Headers())
        request.end()
        request.end()
        let spans = tracer.drain()
        #expect(spans.map { $0.name } == ["downloading_source_image", "scale_on_load", "processing_image", "request"])
        #expect(Set(spans.map { $0.traceID }) == [123])
        let root = try #require(spans.last)
        #expect(root.parentID == 456)
        #expect(root.type == "web")
        #expect(root.service == "imgproxy")
        #expect(root.meta["http.method"] == "GET")
        #expect(root.meta["http.url"] == "/insecure/w:10/plain/a.png")
        #expect(root.meta["http.status_code"] == "200")
        #expect(root.meta["env"] == "prod")
        #expect(root.meta["version"] == "4.0")
        #expect(root.metrics["_sampling_priority_v1"] == 2)
        #expect(spans[0].parentID == root.spanID)
        #expect(spans[0].error)
        #expect(spans[0].meta["imgproxy.source_image_url"] == "http://origin:8080/a.png")
        #expect(spans[0].meta["imgproxy.source_image_origin"] == "http://origin:8080")
        #expect(spans[0].meta["error.type"] == "Swift.CancellationError")
        #expect(spans[1].parentID == spans[2].spanID)
        #expect(origin["x-datadog-trace-id"] == "123")
        #expect(origin["x-datadog-parent-id"] == String(spans[2].spanID))
        #expect(origin["x-datadog-sampling-priority"] == "2")
        #expect(tracer.drain().isEmpty)
    }

    @Test func withoutACallerASpanStartsItsOwnTrace() {
        let tracer = Self.tracer()
        var context = ServiceContext.topLevel
        tracer.extract(["x-datadog-trace-id": "abc", "x-datadog-parent-id": "1"], into: &context, using: Headers())
        let span = tracer.startSpan("request", context: context, ofKind: .server)
        span.end()
        let spans = tracer.drain()
        #expect(spans.count == 1)
        #expect(spans.first?.parentID == 0)
        #expect(spans.first.map { $0.traceID != 0 && $0.spanID != 0 } == true)
        var origin: [String: String] = [:]
        tracer.inject(ServiceContext.topLevel, into: &origin, using: Headers())
        #expect(origin.isEmpty)
    }
}
