import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
import WebImage

/// OTLP/HTTP: each export a `POST` of the request, as protobuf (`application/x-protobuf`) or OTLP's JSON
/// (`application/json`), with the configured headers, to the signal's URL (the endpoint's `/v1/traces` or
/// `/v1/logs`, or the signal's own URL), gzipped when asked (`Content-Encoding: gzip`); over TLS for an `https` URL,
/// trusting the given CA and presenting the given client certificate. A status outside 2xx is a failure.
package struct OTLPHTTPTransport: OTLPTransport {
    package let endpoint: String
    private let json: Bool
    private let gzip: Bool
    private let headers: [(String, String)]
    private let timeout: Duration
    private let clientConfiguration: HTTPClient.Configuration
    /// The client (guarded by its lock), made at the first export: a transport that a failed start never used holds
    /// none, since an HTTP client released without its shutdown traps.
    private let client = Locked<ClientState>(.unused)

    /// The life of the transport's HTTP client.
    private enum ClientState {
        case unused
        case open(HTTPClient)
        case closed
    }

    /// A transport posting to `url` (the signal's full URL), as JSON when `json`, gzipped when `gzip`, with `headers`,
    /// each request within `timeout`; `tls` names the PEM files of the collector's CA and of the client's certificate
    /// and key.
    ///
    /// - Throws: ``OTLPExportError/invalidConfiguration(_:)`` for a URL that is not `http` or `https`, or a client
    ///   certificate without its key; NIOSSL's error for a file that is not PEM.
    package init(
        url: String, json: Bool, gzip: Bool = false, headers: [(String, String)], timeout: Duration, tls: OTLPTLSFiles
    ) throws {
        guard let parsed = URL(string: url), parsed.scheme == "http" || parsed.scheme == "https", parsed.host != nil
        else { throw OTLPExportError.invalidConfiguration("not an http(s) URL: \(url)") }
        endpoint = url
        self.json = json
        self.gzip = gzip
        self.headers = headers
        self.timeout = timeout
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.tracing.tracer = nil
        if parsed.scheme == "https" {
            var security = TLSConfiguration.makeClientConfiguration()
            if let authority = tls.certificateAuthority { security.trustRoots = .file(authority) }
            switch (tls.clientCertificate, tls.clientKey) {
            case (nil, nil): break
            case (let certificate?, let key?):
                security.certificateChain = try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) }
                security.privateKey = .privateKey(try NIOSSLPrivateKey(file: key, format: .pem))
            default:
                throw OTLPExportError.invalidConfiguration(
                    "a client certificate needs its key, and a key its certificate")
            }
            configuration.tlsConfiguration = security
        }
        clientConfiguration = configuration
    }

    package func export(_ request: OTLPMessage, signal: OTLPSignal) async throws {
        var post = HTTPClientRequest(url: endpoint)
        post.method = .POST
        for (name, value) in headers { post.headers.add(name: name, value: value) }
        post.headers.replaceOrAdd(name: "Content-Type", value: json ? "application/json" : "application/x-protobuf")
        post.headers.replaceOrAdd(name: "User-Agent", value: "webimage")
        let body = json ? request.json() : request.protobuf()
        if gzip {
            post.headers.replaceOrAdd(name: "Content-Encoding", value: "gzip")
            post.body = .bytes(ByteBuffer(bytes: try OTLPGzip.compressed(body)))
        } else {
            post.body = .bytes(ByteBuffer(bytes: body))
        }
        let (seconds, attoseconds) = timeout.components
        let milliseconds =
            seconds.multipliedReportingOverflow(by: 1000).partialValue + attoseconds / 1_000_000_000_000_000
        let response = try await openClient().execute(post, timeout: .milliseconds(max(1, milliseconds)))
        _ = try await response.body.collect(upTo: 1 << 20)
        guard (200..<300).contains(response.status.code) else { throw OTLPExportError.refused(response.status.code) }
    }

    /// Nothing runs beside the exports.
    package func run() async throws {}

    package func shutdown() async {
        let made = client.withLock { state -> HTTPClient? in
            defer { state = .closed }
            if case .open(let client) = state { return client }
            return nil
        }
        try? await made?.shutdown()
    }

    /// The client, made now if this is the first export; an export after ``shutdown()`` fails.
    private func openClient() throws -> HTTPClient {
        try client.withLock { state in
            switch state {
            case .open(let client): return client
            case .closed: throw OTLPExportError.invalidConfiguration("the exporter is shut down")
            case .unused:
                let made = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration)
                state = .open(made)
                return made
            }
        }
    }
}
