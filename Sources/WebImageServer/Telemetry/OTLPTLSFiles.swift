/// The PEM files of an exporter's TLS: the collector's CA (`OTEL_EXPORTER_OTLP_CERTIFICATE`), and for mutual TLS
/// the client's certificate and key (`OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE`, `_CLIENT_KEY`); each `nil` when not
/// given.
package struct OTLPTLSFiles: Sendable, Hashable {
    package var certificateAuthority: String?
    package var clientCertificate: String?
    package var clientKey: String?

    package init(certificateAuthority: String? = nil, clientCertificate: String? = nil, clientKey: String? = nil) {
        self.certificateAuthority = certificateAuthority
        self.clientCertificate = clientCertificate
        self.clientKey = clientKey
    }
}
