import ArgumentParser
import Foundation

/// The `OTEL_EXPORTER_OTLP_*` variables as imgproxy reads them, rewritten into the standard ones the exporters read: the
/// protocol (`grpc` by default, `http` and `https` standing for `http/protobuf`), the endpoints (imgproxy's
/// `https://localhost:4317` or `:4318` by default, `http` with `OTEL_EXPORTER_OTLP_INSECURE=true`; a gRPC endpoint
/// without a scheme takes one the same way, and `https` whenever a server certificate is given), and the collector's
/// CA and the client's certificate and key given as PEM text (imgproxy's `IMGPROXY_OPEN_TELEMETRY_SERVER_CERT`,
/// `_CLIENT_CERT`, `_CLIENT_KEY`), which the exporters take as files (``PrivateFile``).
struct OTLPEnvironment {
    /// The PEM texts given, each with imgproxy's literal `\n` read as a line break.
    struct Certificates {
        var server: String?
        var client: String?
        var key: String?
    }

    /// The protocol names read, and the one each stands for.
    static let protocols = [
        "grpc": "grpc", "http/protobuf": "http/protobuf", "http": "http/protobuf", "https": "http/protobuf",
        "http/json": "http/json",
    ]
    /// The signals, as the variables name them.
    static let signals = ["TRACES", "METRICS", "LOGS"]

    /// The variables, rewritten as they are read.
    private(set) var variables: [String: String]

    /// `environment` rewritten as described above, with `certificates`.
    ///
    /// - Throws: `ValidationError` for a protocol that is none of ``protocols``, or a certificate or key that is not
    ///   PEM.
    init(_ environment: [String: String], certificates: Certificates) throws {
        variables = environment
        let general = try Self.protocolName(environment, "OTEL_EXPORTER_OTLP_PROTOCOL") ?? "grpc"
        variables["OTEL_EXPORTER_OTLP_PROTOCOL"] = general
        let server = certificates.server.flatMap(Self.pem)
        for signal in Self.signals {
            let key = "OTEL_EXPORTER_OTLP_\(signal)_PROTOCOL"
            let name = try Self.protocolName(environment, key) ?? general
            variables[key] = name
            let endpoint = "OTEL_EXPORTER_OTLP_\(signal)_ENDPOINT"
            let named = Self.value(environment, endpoint) ?? Self.value(environment, "OTEL_EXPORTER_OTLP_ENDPOINT")
            let insecure =
                (Self.value(environment, "OTEL_EXPORTER_OTLP_\(signal)_INSECURE")
                ?? Self.value(environment, "OTEL_EXPORTER_OTLP_INSECURE"))?.lowercased() == "true"
            if name == "grpc" {
                var url = named ?? "https://localhost:4317"
                if !url.contains("://") { url = (insecure ? "http://" : "https://") + url }
                if server != nil, url.hasPrefix("http://") { url = "https://" + url.dropFirst("http://".count) }
                variables[endpoint] = url
            } else if named == nil {
                variables[endpoint] = (insecure ? "http" : "https") + "://localhost:4318/v1/\(signal.lowercased())"
            }
        }
        guard let server else { return }
        try use(server, as: "CERTIFICATE", name: "IMGPROXY_OPEN_TELEMETRY_SERVER_CERT", marker: "CERTIFICATE")
        // As imgproxy: a client certificate only with its key, and both only with the server's.
        guard let client = certificates.client.flatMap(Self.pem), let key = certificates.key.flatMap(Self.pem) else {
            return
        }
        try use(client, as: "CLIENT_CERTIFICATE", name: "IMGPROXY_OPEN_TELEMETRY_CLIENT_CERT", marker: "CERTIFICATE")
        try use(key, as: "CLIENT_KEY", name: "IMGPROXY_OPEN_TELEMETRY_CLIENT_KEY", marker: "PRIVATE KEY")
    }

    /// Writes `pem` to a private file and names it in `OTEL_EXPORTER_OTLP_<suffix>` and each signal's variable.
    private mutating func use(_ pem: String, as suffix: String, name: String, marker: String) throws {
        guard pem.contains("-----BEGIN "), pem.contains("\(marker)-----") else {
            throw ValidationError("\(name): not a PEM \(marker.lowercased())")
        }
        let file = try PrivateFile(pem, name: name)
        variables["OTEL_EXPORTER_OTLP_\(suffix)"] = file.path
        for signal in Self.signals { variables["OTEL_EXPORTER_OTLP_\(signal)_\(suffix)"] = file.path }
    }

    /// The protocol `key` names, as OpenTelemetry spells it; `nil` when it is not set.
    private static func protocolName(_ environment: [String: String], _ key: String) throws -> String? {
        guard let text = value(environment, key) else { return nil }
        guard let name = protocols[text.lowercased()] else {
            throw ValidationError("\(key)=\(text): must be grpc, http/protobuf (or http, https) or http/json")
        }
        return name
    }

    /// The value of `key`, `nil` when it is unset or blank.
    private static func value(_ environment: [String: String], _ key: String) -> String? {
        environment[key].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
    }

    /// `text` with imgproxy's literal `\n` sequences as line breaks; `nil` when it is blank.
    private static func pem(_ text: String) -> String? {
        let pem = text.replacingOccurrences(of: "\\n", with: "\n")
        return pem.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : pem
    }
}
