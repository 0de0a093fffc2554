/// How an exporter reaches its collector: OTLP/HTTP (``OTLPHTTPTransport``) or OTLP/gRPC (`webimage`'s gRPC
/// transport), each encoding the request as its protocol wants.
package protocol OTLPTransport: Sendable {
    /// The collector, as the log names it.
    var endpoint: String { get }

    /// Sends `request`, an export request of `signal`; throws when the collector does not take it.
    func export(_ request: OTLPMessage, signal: OTLPSignal) async throws

    /// Runs what the transport needs while it is used (a gRPC client's connections), until cancelled or shut down.
    func run() async throws

    /// Closes the transport's connections, after the last export.
    func shutdown() async
}
