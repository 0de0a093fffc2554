import Foundation
import Hummingbird
import HummingbirdCore
import WebImage

/// An OTLP/HTTP collector of the test's own on 127.0.0.1: it keeps every `POST /v1/traces`, `/v1/metrics` and
/// `/v1/logs` it receives (signal, content type and body) and reads the spans of the JSON ones.
final class OTLPReceiver: Sendable {
    /// One export request.
    struct Export: Sendable {
        /// `traces`, `metrics` or `logs`.
        var signal: String
        var contentType: String
        /// `Content-Encoding`, empty when the body is sent as it is.
        var contentEncoding: String
        var body: Data
    }

    /// One span of a JSON export, its ids in lower-case hexadecimal.
    struct Span: Sendable, CustomStringConvertible {
        var traceID: String
        var spanID: String
        var parentID: String
        var name: String
        var attributes: [String: String]

        var description: String { "\(name) \(spanID) <- \(parentID.isEmpty ? "root" : parentID) \(attributes)" }
    }

    let port: Int
    /// `http`, or `https` for a receiver started with TLS.
    let scheme: String
    private let received: Locked<[Export]>
    private let server: LocalRouterServer

    private init(scheme: String, received: Locked<[Export]>, server: LocalRouterServer) {
        self.port = server.port
        self.scheme = scheme
        self.received = received
        self.server = server
    }

    /// Starts a receiver on a free port, over plain HTTP/1.1 unless `server` (and `scheme`) says otherwise.
    static func start(server: HTTPServerBuilder = .http1(), scheme: String = "http") async throws -> OTLPReceiver {
        let received = Locked<[Export]>([])
        let router = Router()
        router.post("v1/:signal") { request, context -> Response in
            let body = try await request.body.collect(upTo: 64 << 20)
            let export = Export(
                signal: context.parameters.get("signal") ?? "", contentType: request.headers[.contentType] ?? "",
                contentEncoding: request.headers[.contentEncoding] ?? "", body: Data(buffer: body))
            received.withLock { $0.append(export) }
            // An empty Export…ServiceResponse, in the request's encoding (the exporter wants a content type).
            let json = export.contentType.hasPrefix("application/json")
            return Response(
                status: .ok, headers: [.contentType: json ? "application/json" : "application/x-protobuf"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: json ? "{}" : "")))
        }
        return OTLPReceiver(
            scheme: scheme, received: received, server: try await LocalRouterServer.start(router, server: server))
    }

    var endpoint: String { "\(scheme)://127.0.0.1:\(port)" }

    /// The export requests so far.
    var exports: [Export] { received.withLock { $0 } }

    /// The spans of every JSON export so far.
    var spans: [Span] {
        exports.filter { $0.signal == "traces" && $0.contentType.hasPrefix("application/json") }
            .flatMap { Self.spans(in: $0.body) }
    }

    func stop() async { await server.stop() }

    /// The spans of an OTLP JSON `ExportTraceServiceRequest`.
    static func spans(in body: Data) -> [Span] {
        guard let root = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return [] }
        var spans: [Span] = []
        for resource in root["resourceSpans"] as? [[String: Any]] ?? [] {
            for scope in resource["scopeSpans"] as? [[String: Any]] ?? [] {
                for span in scope["spans"] as? [[String: Any]] ?? [] {
                    var attributes: [String: String] = [:]
                    for attribute in span["attributes"] as? [[String: Any]] ?? [] {
                        guard let key = attribute["key"] as? String, let value = attribute["value"] as? [String: Any],
                            let first = value.values.first
                        else { continue }
                        attributes[key] = "\(first)"
                    }
                    spans.append(
                        Span(
                            traceID: hex(span["traceId"]), spanID: hex(span["spanId"]),
                            parentID: hex(span["parentSpanId"]), name: span["name"] as? String ?? "",
                            attributes: attributes))
                }
            }
        }
        return spans
    }

    /// The resource's `service.name` in an OTLP JSON `ExportTraceServiceRequest`.
    static func serviceName(in body: Data) -> String? {
        let root = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        let resource = (root?["resourceSpans"] as? [[String: Any]])?.first?["resource"] as? [String: Any]
        let attribute = (resource?["attributes"] as? [[String: Any]])?.first { $0["key"] as? String == "service.name" }
        return (attribute?["value"] as? [String: Any])?["stringValue"] as? String
    }

    /// `body` inflated by gzip(1), a decoder independent of the server's zlib calls.
    ///
    /// - Throws: when gzip cannot run or the body is not gzip.
    static func gunzip(_ body: Data) throws -> Data {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("otlp-\(UUID().uuidString).gz")
        try body.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
        process.arguments = ["-dc", file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let inflated = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileReadCorruptFile) }
        return inflated
    }

    /// An id as OTLP JSON writes it (hexadecimal), or as protobuf's JSON mapping writes bytes (base64), in hex.
    private static func hex(_ value: Any?) -> String {
        guard let text = value as? String, !text.isEmpty else { return "" }
        let isHex = (text.count == 16 || text.count == 32) && text.allSatisfy(\.isHexDigit)
        if isHex { return text.lowercased() }
        guard let bytes = Data(base64Encoded: text) else { return text }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }
}
