import ArgumentParser
import Foundation
import WebImageServer

/// How one signal (traces or logs) reaches its collector, read from the `OTEL_EXPORTER_OTLP_*` variables as
/// ``OTLPEnvironment`` rewrote them, each signal's own variable first (`OTEL_EXPORTER_OTLP_TRACES_HEADERS`), then the
/// general one: the protocol and endpoint (an OTLP/HTTP endpoint named by `OTEL_EXPORTER_OTLP_ENDPOINT` gets the
/// signal's `/v1/traces` or `/v1/logs`, a signal's own is taken as it is), the headers (`k=v,k2=v2`, values
/// percent-decoded), the timeout (`_TIMEOUT`, milliseconds, 10 s by default), the compression (`_COMPRESSION`, `gzip`
/// or `none`: gRPC's message compression, or OTLP/HTTP's gzipped body) and the TLS files (`_CERTIFICATE`,
/// `_CLIENT_CERTIFICATE`, `_CLIENT_KEY`).
struct OTLPSignalEnvironment {
    let signal: OTLPSignal
    /// `grpc`, `http/protobuf` or `http/json`.
    let protocolName: String
    let endpoint: String
    let headers: [(String, String)]
    let timeout: Duration
    let gzip: Bool
    let tls: OTLPTLSFiles

    /// `signal`'s settings in `variables`.
    ///
    /// - Throws: `ValidationError` for a timeout that is not a positive number of milliseconds, or a compression
    ///   other than `gzip` and `none`.
    init(_ signal: OTLPSignal, variables: [String: String]) throws {
        self.signal = signal
        let name = signal.name.uppercased()
        func value(_ suffix: String) -> String? {
            for key in ["OTEL_EXPORTER_OTLP_\(name)_\(suffix)", "OTEL_EXPORTER_OTLP_\(suffix)"] {
                if let text = variables[key]?.trimmingCharacters(in: .whitespaces), !text.isEmpty { return text }
            }
            return nil
        }
        protocolName = value("PROTOCOL") ?? "grpc"
        let own = variables["OTEL_EXPORTER_OTLP_\(name)_ENDPOINT"].flatMap { $0.isEmpty ? nil : $0 }
        if let own {
            endpoint = own
        } else {
            var base = value("ENDPOINT") ?? "https://localhost:4318"
            while base.hasSuffix("/") { base.removeLast() }
            endpoint = protocolName == "grpc" ? base : base + "/v1/\(signal.name)"
        }
        headers = Self.headers(value("HEADERS") ?? "")
        if let text = value("TIMEOUT") {
            guard let milliseconds = Int(text), milliseconds > 0 else {
                throw ValidationError("OTEL_EXPORTER_OTLP_TIMEOUT=\(text): must be a positive number of milliseconds")
            }
            timeout = .milliseconds(milliseconds)
        } else {
            timeout = .seconds(10)
        }
        switch value("COMPRESSION")?.lowercased() {
        case nil, "none": gzip = false
        case "gzip": gzip = true
        case let other?: throw ValidationError("OTEL_EXPORTER_OTLP_COMPRESSION=\(other): must be gzip or none")
        }
        tls = OTLPTLSFiles(
            certificateAuthority: value("CERTIFICATE"), clientCertificate: value("CLIENT_CERTIFICATE"),
            clientKey: value("CLIENT_KEY"))
    }

    /// The transport these settings name.
    ///
    /// - Throws: `ValidationError` for an endpoint or TLS files that cannot be used, or gRPC in a build without it.
    func transport() throws -> any OTLPTransport {
        do {
            if protocolName == "grpc" { return try Self.grpc(self) }
            return try OTLPHTTPTransport(
                url: endpoint, json: protocolName == "http/json", gzip: gzip, headers: headers, timeout: timeout,
                tls: tls)
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("OpenTelemetry \(signal.name) exporter: \(error)")
        }
    }

    #if WEBIMAGE_OTEL
        private static func grpc(_ settings: OTLPSignalEnvironment) throws -> any OTLPTransport {
            try OTLPGRPCTransport(settings)
        }
    #else
        private static func grpc(_ settings: OTLPSignalEnvironment) throws -> any OTLPTransport {
            throw ValidationError("OTLP/gRPC: this build of webimage has no gRPC client (built with WEBIMAGE_NO_OTEL)")
        }
    #endif

    /// The `key=value` pairs of a headers variable, values percent-decoded.
    static func headers(_ text: String) -> [(String, String)] {
        text.split(separator: ",").compactMap { pair in
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            let key = pair[..<equals].trimmingCharacters(in: .whitespaces)
            let raw = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty else { return nil }
            return (key, raw.removingPercentEncoding ?? raw)
        }
    }
}
