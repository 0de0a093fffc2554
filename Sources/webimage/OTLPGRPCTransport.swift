#if WEBIMAGE_OTEL
    import Foundation
    import GRPCCore
    import GRPCNIOTransportHTTP2
    import WebImageServer

    /// OTLP/gRPC: each export a unary call of the signal's collector service's `Export` method, the request's
    /// protobuf bytes as the message (grpc-swift-2's client, over HTTP/2 in plain text for an `http` endpoint and TLS
    /// for `https`, trusting the given CA and presenting the given client certificate), with the headers as metadata,
    /// the timeout as the deadline and gzip when asked; retried as OpenTelemetry's exporters do.
    struct OTLPGRPCTransport: OTLPTransport {
        let endpoint: String
        private let client: GRPCClient<HTTP2ClientTransport.Posix>
        private let metadata: Metadata
        private let options: CallOptions

        /// Messages as their bytes, as they are.
        private struct Bytes: MessageSerializer, MessageDeserializer {
            func serialize<Output: GRPCContiguousBytes>(_ message: [UInt8]) throws -> Output { Output(message) }

            func deserialize<Input: GRPCContiguousBytes>(_ bytes: Input) throws -> [UInt8] {
                bytes.withUnsafeBytes { Array($0) }
            }
        }

        /// A client for `settings`' endpoint.
        ///
        /// - Throws: ``OTLPExportError/invalidConfiguration(_:)`` for an endpoint that is not `http(s)://host:port`,
        ///   or a client certificate without its key.
        init(_ settings: OTLPSignalEnvironment) throws {
            endpoint = settings.endpoint
            guard let url = URLComponents(string: settings.endpoint), let host = url.host, let port = url.port,
                url.scheme == "http" || url.scheme == "https"
            else { throw OTLPExportError.invalidConfiguration("not an http(s)://HOST:PORT endpoint: \(endpoint)") }
            let security: HTTP2ClientTransport.Posix.TransportSecurity
            if url.scheme == "http" {
                security = .plaintext
            } else {
                var tls = HTTP2ClientTransport.Posix.TransportSecurity.TLS.defaults
                if let authority = settings.tls.certificateAuthority {
                    tls.trustRoots = .certificates([.file(path: authority, format: .pem)])
                }
                switch (settings.tls.clientCertificate, settings.tls.clientKey) {
                case (nil, nil): break
                case (let certificate?, let key?):
                    tls.certificateChain = [.file(path: certificate, format: .pem)]
                    tls.privateKey = .file(path: key, format: .pem)
                default:
                    throw OTLPExportError.invalidConfiguration(
                        "a client certificate needs its key, and a key its certificate")
                }
                security = .tls(tls)
            }
            client = GRPCClient(
                transport: try HTTP2ClientTransport.Posix(
                    target: .dns(host: host, port: port), transportSecurity: security))
            var metadata = Metadata()
            for (name, value) in settings.headers { metadata.addString(value, forKey: name.lowercased()) }
            metadata.replaceOrAddString("webimage", forKey: "user-agent")
            self.metadata = metadata
            var options = CallOptions.defaults
            options.timeout = settings.timeout
            options.compression = settings.gzip ? .gzip : CompressionAlgorithm.none
            options.executionPolicy = .retry(
                RetryPolicy(
                    maxAttempts: 3, initialBackoff: .seconds(1), maxBackoff: .seconds(5), backoffMultiplier: 2,
                    retryableStatusCodes: [
                        .cancelled, .deadlineExceeded, .aborted, .outOfRange, .unavailable, .dataLoss,
                    ]
                ))
            self.options = options
        }

        func export(_ request: OTLPMessage, signal: OTLPSignal) async throws {
            _ = try await client.unary(
                request: ClientRequest(message: request.protobuf(), metadata: metadata),
                descriptor: MethodDescriptor(fullyQualifiedService: signal.service, method: "Export"),
                serializer: Bytes(), deserializer: Bytes(), options: options
            ) { response in try response.message }
        }

        func run() async throws { try await client.runConnections() }

        func shutdown() async { client.beginGracefulShutdown() }
    }
#endif
