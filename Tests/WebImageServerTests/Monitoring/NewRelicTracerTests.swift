import Foundation
import Logging
import Testing
import Tracing

@testable import WebImageServer

/// The New Relic tracer without New Relic: a caller's W3C or `newrelic` trace continued, imgproxy's transaction and
/// segment names and attributes on the spans it keeps, one error event per failed request, the headers it writes for
/// an origin.
@Suite struct NewRelicTracerTests {
    struct Headers: Extractor, Injector {
        func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
        func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) { carrier[key] = value }
    }

    static let trace = "0af7651916cd43dd8448eb211c80319c"

    static func tracer(account: String? = "1234") -> NewRelicTracer {
        NewRelicTracer(
            NewRelicMonitoring(key: "license", appName: "images", accountID: account), logger: Logger(label: "test"))
    }

    @Test func aCallersTraceIsContinuedAsImgproxysTransaction() throws {
        let tracer = Self.tracer()
        var context = ServiceContext.topLevel
        tracer.extract(
            [
                "traceparent": "00-\(Self.trace)-b7ad6b7169203331-01",
                "tracestate": "1234@nr=0-0-33-2827902-b7ad6b7169203331-e8b91a159289ff74-1-1.234567-1518469636035,"
                    + "congo=t61rcWkgMzE",
            ], into: &context, using: Headers())
        let request = tracer.startSpan("GET /**", context: context, ofKind: .server)
        request.attributes["http.request.method"] = "GET"
        request.attributes["url.path"] = "/insecure/w:10/plain/a.png"
        request.attributes["http.response.status_code"] = 404
        let fetch = tracer.startSpan("source fetch", context: request.context, ofKind: .internal)
        fetch.attributes["imgproxy.source_image_url"] = "http://origin:8080/a.png"
        var origin: [String: String] = [:]
        tracer.inject(fetch.context, into: &origin, using: Headers())
        fetch.recordError(ImageServerError(status: 404, "source image not found"))
        fetch.end()
        request.end()
        request.end()
        let spans = tracer.drain()
        #expect(spans.count == 2)
        let (segment, entry) = (spans[0], spans[1])
        #expect(Set(spans.map(\.traceID)) == [Self.trace])
        #expect(entry.attributes["name"] == "WebTransaction/Go/request")
        #expect(entry.attributes["nr.entryPoint"] == .bool(true))
        #expect(entry.attributes["parent.id"] == "b7ad6b7169203331")
        #expect(entry.attributes["priority"] == .number(1.234567))
        #expect(entry.attributes["request.method"] == "GET")
        #expect(entry.attributes["request.uri"] == "/insecure/w:10/plain/a.png")
        #expect(entry.attributes["http.statusCode"] == .number(404))
        #expect(entry.attributes["imgproxy.source_image_url"] == "http://origin:8080/a.png")
        #expect(entry.attributes["error.class"] == "path_parsing_error (PathParsingError)")
        #expect(segment.attributes["name"] == "Custom/Downloading source image")
        #expect(segment.attributes["parent.id"] == .string(entry.id))
        #expect(segment.attributes["transactionId"] == entry.attributes["transactionId"])
        #expect(segment.attributes["imgproxy.source_image_origin"] == "http://origin:8080")
        #expect(segment.attributes["error.message"] == "404: source image not found")
        let events = tracer.drainErrors()
        #expect(events.count == 1)
        #expect(events.first?["eventType"] == "TransactionError")
        #expect(events.first?["transactionName"] == "WebTransaction/Go/request")
        #expect(events.first?["traceId"] == .string(Self.trace))
        #expect(events.first?["appName"] == "images")
        #expect(events.first?["guid"] == entry.attributes["transactionId"])
        // The origin gets the trace, the segment as the parent, New Relic's entry first, the other vendor's after.
        #expect(origin["traceparent"] == "00-\(Self.trace)-\(segment.id)-01")
        let state = try #require(origin["tracestate"])
        #expect(state.hasPrefix("1234@nr=0-0-1234-0-\(segment.id)-"))
        #expect(state.hasSuffix(",congo=t61rcWkgMzE"))
        let header = try #require(origin["newrelic"].flatMap { Data(base64Encoded: $0) })
        let json = try #require(try JSONSerialization.jsonObject(with: header) as? [String: Any])
        let fields = try #require(json["d"] as? [String: Any])
        #expect(fields["tr"] as? String == Self.trace)
        #expect(fields["id"] as? String == segment.id)
        #expect(fields["ac"] as? String == "1234")
        #expect(tracer.drain().isEmpty)
    }

    /// Work outside a request (the start's fetch of a watermark or fallback image: spans without a parent that are not
    /// server spans) is no transaction, and sends nothing: no `WebTransaction/Go/request`, no error event.
    @Test func onlyARequestStartsATransaction() throws {
        let tracer = Self.tracer()
        let fetch = tracer.startSpan("source fetch", context: .topLevel, ofKind: .internal)
        let decode = tracer.startSpan("decode", context: fetch.context, ofKind: .internal)
        decode.recordError(ImageServerError(status: 422, "broken"))
        decode.end()
        fetch.end()
        #expect(tracer.drain().isEmpty && tracer.drainErrors().isEmpty)
        let request = tracer.startSpan("GET /**", context: .topLevel, ofKind: .server)
        request.end()
        #expect(tracer.drain().count == 1)
    }

    @Test func onlyTheTrustedAccountsEntryIsNewRelics() {
        let state = "55@nr=0-0-55-1-b7ad6b7169203331-e8b91a159289ff74-0-0.500000-1518469636035,congo=t61rcWkgMzE"
        let traceparent = "00-\(Self.trace)-b7ad6b7169203331-01"
        let untrusted = NewRelicTraceHeaders.read(traceparent: traceparent, tracestate: state, trustedKey: "1234")
        #expect(untrusted?.sampled == true)
        #expect(untrusted?.priority != 0.5)
        #expect(untrusted?.otherVendors == state.split(separator: ",").map(String.init))
        let trusted = NewRelicTraceHeaders.read(traceparent: traceparent, tracestate: state, trustedKey: "55")
        #expect(trusted?.sampled == false)
        #expect(trusted?.priority == 0.5)
        #expect(trusted?.otherVendors == ["congo=t61rcWkgMzE"])
        // Without a trusted key (no account yet), any New Relic entry is read.
        #expect(NewRelicTraceHeaders.read(traceparent: traceparent, tracestate: state)?.priority == 0.5)
    }

    @Test func theNewrelicHeaderIsReadWithoutATraceparent() throws {
        let payload =
            #"{"v":[0,1],"d":{"ty":"App","ac":"9","ap":"5","id":"27856f70d3d314b7","tr":"3221bf09aa0bcf0d","pr":0.5,"sa":false,"ti":1}}"#
        let tracer = Self.tracer()
        var context = ServiceContext.topLevel
        tracer.extract(["newrelic": Data(payload.utf8).base64EncodedString()], into: &context, using: Headers())
        let request = tracer.startSpan("GET /**", context: context, ofKind: .server)
        request.end()
        let entry = try #require(tracer.drain().first)
        #expect(entry.traceID == "00000000000000003221bf09aa0bcf0d")
        #expect(entry.attributes["parent.id"] == "27856f70d3d314b7")
        #expect(entry.attributes["sampled"] == .bool(false))
        #expect(entry.attributes["priority"] == .number(0.5))
    }

    @Test(arguments: [
        "00-00000000000000000000000000000000-b7ad6b7169203331-01", "00-\(trace)-0000000000000000-01",
        "ff-\(trace)-b7ad6b7169203331-01", "00-\(trace)-b7ad6b716920333-01", "00-\(trace)-b7ad6b7169203331-01-x",
        "00-0af7651916cd43dd8448eb211c80319g-b7ad6b7169203331-01", "garbage",
    ])
    func anInvalidTraceparentStartsATraceOfItsOwn(traceparent: String) throws {
        let tracer = Self.tracer(account: nil)
        var context = ServiceContext.topLevel
        tracer.extract(["traceparent": traceparent], into: &context, using: Headers())
        #expect(context.newRelicSpan == nil)
        let span = tracer.startSpan("GET /**", context: context, ofKind: .server)
        span.recordError(ImageServerError(status: 500, "broken"))
        var origin: [String: String] = [:]
        tracer.inject(span.context, into: &origin, using: Headers())
        span.end()
        let entry = try #require(tracer.drain().first)
        #expect(entry.traceID.count == 32 && entry.traceID != Self.trace)
        #expect(entry.attributes["parent.id"] == nil)
        #expect(entry.attributes["error.class"] == "processing_error (ProcessingError)")
        // Without an account: no event, no New Relic entry, `traceparent` alone.
        #expect(tracer.drainErrors().isEmpty)
        #expect(origin.keys.sorted() == ["traceparent"])
    }

    @Test(arguments: [
        #"{"v":[0,1],"d":{"tr":"000","id":"27856f70d3d314b7"}}"#,
        #"{"v":[0,1],"d":{"tr":"3221bf09aa0bcf0d","id":"0"}}"#,
        #"{"v":[0,1],"d":{"tr":"3221bf09aa0bcf0dx","id":"1"}}"#, #"{"v":[0,1],"d":{"id":"1"}}"#, "not json",
    ])
    func anInvalidNewrelicHeaderIsNotRead(payload: String) {
        #expect(NewRelicTraceHeaders.read(newrelic: Data(payload.utf8).base64EncodedString()) == nil)
    }

    @Test func anyHeaderIsReadAsAValidTraceOrNotAtAll() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789abcdefABCDEF-=,@ \t{}\":[]+/0000000000000000")
        for round in 0..<2000 {
            let length = Int.random(in: 0...80, using: &generator)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            let caller: NewRelicSpanContext?
            switch round % 3 {
            case 0: caller = NewRelicTraceHeaders.read(traceparent: "00-" + text, tracestate: text)
            case 1: caller = NewRelicTraceHeaders.read(newrelic: Data(text.utf8).base64EncodedString())
            default: caller = NewRelicTraceHeaders.read(traceparent: text, tracestate: nil, newrelic: text)
            }
            guard let caller else { continue }
            let hex = { (id: String, count: Int) in
                id.count == count && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
                    && id.contains { $0 != "0" }
            }
            #expect(hex(caller.traceID, 32) && hex(caller.spanID, 16), "\(text)")
            #expect((0...2).contains(caller.priority), "\(text)")
        }
    }
}
