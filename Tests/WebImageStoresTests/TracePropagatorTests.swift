import Foundation
import Testing
import Tracing

@testable import WebImageServer

/// `OTEL_PROPAGATORS`' formats against their specifications' examples (W3C Trace Context and Baggage, B3, Jaeger,
/// AWS X-Ray, OpenTracing) and against what OpenTelemetry Go's propagators, imgproxy's, accept and refuse; the list
/// as `autoprop` reads it.
@Suite struct TracePropagatorTests {
    /// Headers by lower-case name, as a server's reader hands them over.
    private static func extracted(_ headers: [String: String], _ list: [String]) throws -> ServiceContext {
        var context = ServiceContext.topLevel
        try TracePropagators(names: list).extract({ headers[$0] }, into: &context)
        return context
    }

    /// The headers `list` writes for `context`.
    private static func injected(_ context: ServiceContext, _ list: [String]) throws -> [String: String] {
        var headers: [String: String] = [:]
        try TracePropagators(names: list).inject(context) { headers[$0] = $1 }
        return headers
    }

    private static func bytes(_ hex: String) -> [UInt8] { OTLPSpanContext.bytes(hex, count: hex.utf8.count / 2) ?? [] }

    private static func span(_ trace: String, _ span: String, sampled: Bool = true) -> ServiceContext {
        var context = ServiceContext.topLevel
        context.otlpSpan = OTLPSpanContext(
            traceID: bytes(trace), spanID: bytes(span), sampled: sampled, traceState: nil)
        return context
    }

    @Test func b3SingleHeaderAsTheSpecificationWritesIt() throws {
        let full = try Self.extracted(
            ["b3": "80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-1-05e3ac9a4f6e3b90"], ["b3"])
        #expect(full.otlpSpan?.traceID == Self.bytes("80f198ee56343ba864fe8b2a57d3eff7"))
        #expect(full.otlpSpan?.spanID == Self.bytes("e457b5a2e4d86bd1") && full.otlpSpan?.sampled == true)
        // A 64-bit trace id is padded; `d` is debug (sampled), a missing state defers the decision (not sampled).
        let short = try Self.extracted(["b3": "a3ce929d0e0e4736-00f067aa0ba902b7-d"], ["b3"])
        #expect(short.otlpSpan?.traceID == Self.bytes("0000000000000000a3ce929d0e0e4736"))
        #expect(short.otlpSpan?.sampled == true && short[B3Propagator.Key.self] == .debug)
        let deferred = try Self.extracted(["b3": "80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1"], ["b3"])
        #expect(deferred.otlpSpan?.sampled == false && deferred[B3Propagator.Key.self] == .deferred)
        #expect(
            try Self.extracted(["b3": "80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-0"], ["b3"])
                .otlpSpan?.sampled == false)
        for bad in [
            "0", "1", "80f198ee56343ba864fe8b2a57d3eff7", "80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-",
            "80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-x",
            "80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-05e3ac9a4f6e3b90",
            "80F198EE56343BA864FE8B2A57D3EFF7-e457b5a2e4d86bd1-1",
            "00000000000000000000000000000000-e457b5a2e4d86bd1-1",
            "80f198ee56343ba864fe8b2a57d3eff7-0000000000000000-1",
            "80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-1-0000000000000000", "80f198ee56343ba8-e457b5a2e4d8",
        ] {
            #expect(try Self.extracted(["b3": bad], ["b3"]).otlpSpan == nil, "\(bad)")
        }
    }

    @Test func b3MultipleHeadersAsTheSpecificationWritesThem() throws {
        let headers = [
            "x-b3-traceid": "80f198ee56343ba864fe8b2a57d3eff7", "x-b3-parentspanid": "05e3ac9a4f6e3b90",
            "x-b3-spanid": "e457b5a2e4d86bd1", "x-b3-sampled": "1",
        ]
        // Both `b3` and `b3multi` read both forms.
        for list in [["b3"], ["b3multi"]] {
            let context = try Self.extracted(headers, list)
            #expect(context.otlpSpan?.traceID == Self.bytes("80f198ee56343ba864fe8b2a57d3eff7"))
            #expect(context.otlpSpan?.spanID == Self.bytes("e457b5a2e4d86bd1") && context.otlpSpan?.sampled == true)
        }
        var legacy = headers
        legacy["x-b3-sampled"] = "true"
        #expect(try Self.extracted(legacy, ["b3multi"]).otlpSpan?.sampled == true)
        var debug = headers
        debug["x-b3-sampled"] = nil
        debug["x-b3-flags"] = "1"
        #expect(try Self.extracted(debug, ["b3multi"])[B3Propagator.Key.self] == .debug)
        // An invalid single header falls back to the multiple ones.
        var both = headers
        both["b3"] = "garbage"
        #expect(try Self.extracted(both, ["b3"]).otlpSpan?.spanID == Self.bytes("e457b5a2e4d86bd1"))
        for (name, value) in [
            ("x-b3-sampled", "yes"), ("x-b3-spanid", ""), ("x-b3-parentspanid", "xyz"), ("x-b3-traceid", "abc"),
        ] {
            var bad = headers
            bad[name] = value
            #expect(try Self.extracted(bad, ["b3multi"]).otlpSpan == nil, "\(name): \(value)")
        }
    }

    @Test func b3WritesTheSingleOrTheMultipleHeaders() throws {
        let context = Self.span("80f198ee56343ba864fe8b2a57d3eff7", "e457b5a2e4d86bd1")
        #expect(try Self.injected(context, ["b3"]) == ["b3": "80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-1"])
        #expect(
            try Self.injected(context, ["b3multi"]) == [
                "x-b3-traceid": "80f198ee56343ba864fe8b2a57d3eff7", "x-b3-spanid": "e457b5a2e4d86bd1",
                "x-b3-sampled": "1",
            ])
        var debug = context
        debug[B3Propagator.Key.self] = .debug
        #expect(try Self.injected(debug, ["b3"])["b3"]?.hasSuffix("-d") == true)
        #expect(try Self.injected(debug, ["b3multi"])["x-b3-flags"] == "1")
        var deferred = Self.span("80f198ee56343ba864fe8b2a57d3eff7", "e457b5a2e4d86bd1", sampled: false)
        deferred[B3Propagator.Key.self] = .deferred
        #expect(try Self.injected(deferred, ["b3"])["b3"] == "80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1")
        #expect(try Self.injected(deferred, ["b3multi"])["x-b3-sampled"] == nil)
    }

    @Test func jaegerUberTraceID() throws {
        let context = try Self.extracted(
            ["uber-trace-id": "3ce929d0e0e4736:f067aa0ba902b7:0:1"], ["jaeger"])
        #expect(context.otlpSpan?.traceID == Self.bytes("000000000000000003ce929d0e0e4736"))
        #expect(context.otlpSpan?.spanID == Self.bytes("00f067aa0ba902b7") && context.otlpSpan?.sampled == true)
        let debug = try Self.extracted(
            ["uber-trace-id": "a3ce929d0e0e4736a3ce929d0e0e4736:00f067aa0ba902b7:0:3"], ["jaeger"])
        #expect(debug[JaegerPropagator.DebugKey.self] == true)
        #expect(
            try Self.injected(debug, ["jaeger"])["uber-trace-id"]
                == "a3ce929d0e0e4736a3ce929d0e0e4736:00f067aa0ba902b7:0:3")
        #expect(
            try Self.extracted(["uber-trace-id": "a3ce929d0e0e4736:00f067aa0ba902b7:0:0"], ["jaeger"]).otlpSpan?
                .sampled == false)
        for bad in [
            "a3ce929d0e0e4736:00f067aa0ba902b7:0", "a3ce929d0e0e4736:00f067aa0ba902b7:0:x",
            ":00f067aa0ba902b7:0:1", "a3ce929d0e0e4736::0:1", "0:00f067aa0ba902b7:0:1",
            "a3ce929d0e0e4736a3ce929d0e0e47360:00f067aa0ba902b7:0:1", "A3CE929D0E0E4736:00f067aa0ba902b7:0:1",
        ] {
            #expect(try Self.extracted(["uber-trace-id": bad], ["jaeger"]).otlpSpan == nil, "\(bad)")
        }
        let written = try Self.injected(
            Self.span("80f198ee56343ba864fe8b2a57d3eff7", "e457b5a2e4d86bd1", sampled: false), ["jaeger"])
        #expect(written == ["uber-trace-id": "80f198ee56343ba864fe8b2a57d3eff7:e457b5a2e4d86bd1:0:0"])
    }

    @Test func awsXRayTraceHeader() throws {
        // AWS's example.
        let context = try Self.extracted(
            ["x-amzn-trace-id": "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"],
            ["xray"])
        #expect(context.otlpSpan?.traceID == Self.bytes("5759e988bd862e3fe1be46a994272793"))
        #expect(context.otlpSpan?.spanID == Self.bytes("53995c3f42cd8ad8") && context.otlpSpan?.sampled == true)
        #expect(
            try Self.injected(context, ["xray"]) == [
                "x-amzn-trace-id": "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"
            ])
        // Any order, unknown parts skipped, sampled only with 1.
        let reordered = try Self.extracted(
            [
                "x-amzn-trace-id": "Self=1-67891234-12456789abcdef012345678;Parent=53995c3f42cd8ad8;"
                    + "Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=?"
            ], ["xray"])
        #expect(reordered.otlpSpan?.spanID == Self.bytes("53995c3f42cd8ad8") && reordered.otlpSpan?.sampled == false)
        for bad in [
            "Root=1-5759e988-bd862e3fe1be46a994272793",
            "Root=1-5759e988-bd862e3fe1be46a99427279;Parent=53995c3f42cd8ad8",
            "Root=2-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8",
            "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad",
            "Root=1-5759e988-bd862e3fe1be46a994272793;Parent",
            "Root=1-5759e988-bd862e3fe1be46a994272793;;Parent=53995c3f42cd8ad8",
        ] {
            #expect(try Self.extracted(["x-amzn-trace-id": bad], ["xray"]).otlpSpan == nil, "\(bad)")
        }
    }

    @Test func openTracingHeadersAndBaggage() throws {
        let context = try Self.extracted(
            [
                "ot-tracer-traceid": "a3ce929d0e0e4736", "ot-tracer-spanid": "00f067aa0ba902b7",
                "ot-tracer-sampled": "true",
            ],
            ["ottrace"])
        #expect(context.otlpSpan?.traceID == Self.bytes("0000000000000000a3ce929d0e0e4736"))
        #expect(context.otlpSpan?.sampled == true)
        var withBaggage = Self.span("80f198ee56343ba864fe8b2a57d3eff7", "e457b5a2e4d86bd1", sampled: false)
        withBaggage.traceBaggage = TraceBaggage(header: "userId=alice,serverNode=DF%2028,bad=line%0Abreak")
        #expect(
            try Self.injected(withBaggage, ["ottrace"]) == [
                "ot-tracer-traceid": "64fe8b2a57d3eff7", "ot-tracer-spanid": "e457b5a2e4d86bd1",
                "ot-tracer-sampled": "false", "ot-baggage-userId": "alice", "ot-baggage-serverNode": "DF 28",
            ])
        for (name, value) in [("ot-tracer-sampled", "maybe"), ("ot-tracer-spanid", ""), ("ot-tracer-traceid", "xyz")] {
            var headers = [
                "ot-tracer-traceid": "a3ce929d0e0e4736", "ot-tracer-spanid": "00f067aa0ba902b7",
                "ot-tracer-sampled": "1",
            ]
            headers[name] = value
            #expect(try Self.extracted(headers, ["ottrace"]).otlpSpan == nil, "\(name): \(value)")
        }
    }

    @Test func w3cBaggageAsTheSpecificationWritesIt() throws {
        let baggage = try #require(
            TraceBaggage(
                header: "key1=value1;property1;property2, key2 = value2, key3=value3; propertyKey=propertyValue"))
        #expect(baggage.members.map(\.key) == ["key1", "key2", "key3"])
        #expect(baggage.header == "key1=value1;property1;property2,key2=value2,key3=value3;propertyKey=propertyValue")
        let decoded = try #require(TraceBaggage(header: "userId=alice,serverNode=DF%2028,isProduction=false"))
        #expect(decoded.members[1].value == "DF 28")
        #expect(decoded.header == "userId=alice,serverNode=DF%2028,isProduction=false")
        // Invalid members are left out, the others kept; the last of a repeated key wins, in the first one's place.
        let mixed = try #require(TraceBaggage(header: "a=1,b c=2,=3,d,e=x\"y,f=%zz,g=7;p q,a=9"))
        #expect(mixed.header == "a=9")
        #expect(TraceBaggage(header: "nothing valid") == nil && TraceBaggage(header: "") == nil)
        #expect(TraceBaggage(header: "k=" + String(repeating: "v", count: 8200)) == nil)
        let many = (0..<100).map { "k\($0)=v" }.joined(separator: ",")
        #expect(TraceBaggage(header: many)?.members.count == TraceBaggage.maximumMembers)
        // Through the propagator, into the context and out again.
        var context = try Self.extracted(["baggage": "userId=alice"], ["baggage"])
        #expect(context.traceBaggage?.header == "userId=alice")
        context.otlpSpan = Self.span("80f198ee56343ba864fe8b2a57d3eff7", "e457b5a2e4d86bd1").otlpSpan
        #expect(try Self.injected(context, ["baggage"]) == ["baggage": "userId=alice"])
    }

    @Test func theListAsAutopropReadsIt() throws {
        let headers = [
            "traceparent": "00-0af7651916cd43dd8448eb211c80933b-b7ad6b7169203331-01",
            "b3": "80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-1",
        ]
        // Each extracts in turn: a later caller replaces an earlier one, as OpenTelemetry's composite propagator.
        #expect(try Self.extracted(headers, ["tracecontext", "b3"]).otlpSpan?.spanID == Self.bytes("e457b5a2e4d86bd1"))
        #expect(try Self.extracted(headers, ["b3", "tracecontext"]).otlpSpan?.spanID == Self.bytes("b7ad6b7169203331"))
        // The default reads traceparent, not b3; `none` anywhere reads and writes nothing.
        var context = ServiceContext.topLevel
        TracePropagators.default.extract({ headers[$0] }, into: &context)
        #expect(context.otlpSpan?.spanID == Self.bytes("b7ad6b7169203331"))
        #expect(try Self.extracted(headers, ["b3", "none"]).otlpSpan == nil)
        #expect(try TracePropagators(names: ["tracecontext", "none"]).isEmpty)
        let span = Self.span("80f198ee56343ba864fe8b2a57d3eff7", "e457b5a2e4d86bd1")
        #expect(try Self.injected(span, ["none"]).isEmpty)
        // Every one writes; nothing is written outside a span.
        let all = try Self.injected(span, ["tracecontext", "b3", "b3multi", "jaeger", "xray", "ottrace"])
        for name in ["traceparent", "b3", "x-b3-traceid", "uber-trace-id", "x-amzn-trace-id", "ot-tracer-traceid"] {
            #expect(all[name] != nil, "\(name)")
        }
        #expect(try Self.injected(.topLevel, ["tracecontext", "b3"]).isEmpty)
        // Unknown names (case counts, and an empty one is unknown too) are refused together.
        for list in [["w3c"], ["tracecontext", "B3", ""], ["baggage", "zipkin"]] {
            #expect(throws: TracePropagators.UnknownName.self, "\(list)") { try TracePropagators(names: list) }
        }
        let error = #expect(throws: TracePropagators.UnknownName.self) {
            try TracePropagators(names: ["tracecontext", "B3", "zipkin"])
        }
        #expect(error?.names == ["B3", "zipkin"])
    }

    @Test func anyHeaderTextIsReadWithoutFailing() throws {
        let alphabet = Array("0123456789abcdefABCDEF-:;=,% \t\"dxRootParentSampled\u{00E9}")
        let names = [
            "traceparent", "tracestate", "baggage", "b3", "x-b3-traceid", "x-b3-spanid", "x-b3-parentspanid",
            "x-b3-sampled", "x-b3-flags", "uber-trace-id", "x-amzn-trace-id", "ot-tracer-traceid", "ot-tracer-spanid",
            "ot-tracer-sampled",
        ]
        let all = TracePropagators.names.filter { $0 != "none" }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            var headers: [String: String] = [:]
            for name in names where Bool.random(using: &generator) {
                let length = Int.random(in: 0...70, using: &generator)
                headers[name] = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            }
            let context = try Self.extracted(headers, all)
            // Whatever was read is written back whole.
            if context.otlpSpan != nil {
                #expect(try Self.injected(context, all)["traceparent"]?.count == 55)
            }
        }
    }
}
