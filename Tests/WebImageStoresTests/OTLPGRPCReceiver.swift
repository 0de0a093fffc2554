#if canImport(GRPCCore)
    import Foundation
    import GRPCCore
    import GRPCNIOTransportHTTP2
    import WebImage

    /// An OTLP/gRPC collector of the test's own on 127.0.0.1 (grpc-swift-2's server, HTTP/2 in plain text or TLS): it keeps the
    /// protobuf bytes of every `Export` call of the trace, metrics and logs services, unparsed, and answers each with
    /// an empty `Export…ServiceResponse`.
    final class OTLPGRPCReceiver: Sendable {
        /// One export call: `traces`, `metrics` or `logs`, and the request message's bytes.
        struct Export: Sendable {
            var signal: String
            var body: Data
        }

        /// The three OTLP collector services, each with its one `Export` method, for raw bytes.
        private struct Collector: RegistrableRPCService {
            let received: Locked<[Export]>

            func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
                let services = [
                    ("traces", "opentelemetry.proto.collector.trace.v1.TraceService"),
                    ("metrics", "opentelemetry.proto.collector.metrics.v1.MetricsService"),
                    ("logs", "opentelemetry.proto.collector.logs.v1.LogsService"),
                ]
                for (signal, service) in services {
                    let received = received
                    router.registerHandler(
                        forMethod: MethodDescriptor(fullyQualifiedService: service, method: "Export"),
                        deserializer: Bytes(), serializer: Bytes()
                    ) { request, _ in
                        var body = Data()
                        for try await message in request.messages { body.append(contentsOf: message) }
                        received.withLock { $0.append(Export(signal: signal, body: body)) }
                        // An empty message: every field of an Export…ServiceResponse is optional.
                        return StreamingServerResponse(single: ServerResponse(message: []))
                    }
                }
            }
        }

        /// Messages as their bytes, as they are.
        private struct Bytes: MessageSerializer, MessageDeserializer {
            func serialize<Output: GRPCContiguousBytes>(_ message: [UInt8]) throws -> Output { Output(message) }

            func deserialize<Input: GRPCContiguousBytes>(_ bytes: Input) throws -> [UInt8] {
                bytes.withUnsafeBytes { Array($0) }
            }
        }

        let port: Int
        private let received: Locked<[Export]>
        private let server: GRPCServer<HTTP2ServerTransport.Posix>
        private let task: Task<Void, any Error>

        private init(
            port: Int, received: Locked<[Export]>, server: GRPCServer<HTTP2ServerTransport.Posix>,
            task: Task<Void, any Error>
        ) {
            self.port = port
            self.received = received
            self.server = server
            self.task = task
        }

        /// Starts a receiver on a free port, in plain text unless `security` says otherwise.
        static func start(
            security: HTTP2ServerTransport.Posix.TransportSecurity = .plaintext
        ) async throws -> OTLPGRPCReceiver {
            let received = Locked<[Export]>([])
            let transport = HTTP2ServerTransport.Posix(
                address: .ipv4(host: "127.0.0.1", port: 0), transportSecurity: security)
            let server = GRPCServer(transport: transport, services: [Collector(received: received)])
            let task = Task { try await server.serve() }
            do {
                guard let port = try await transport.listeningAddress.ipv4?.port else { throw CancellationError() }
                return OTLPGRPCReceiver(port: port, received: received, server: server, task: task)
            } catch {
                server.beginGracefulShutdown()
                _ = await task.result
                throw error
            }
        }

        /// Its address with an `http` scheme (with TLS too: imgproxy's variables then mean TLS all the same).
        var endpoint: String { "http://127.0.0.1:\(port)" }

        /// The export calls so far.
        var exports: [Export] { received.withLock { $0 } }

        func stop() async {
            server.beginGracefulShutdown()
            _ = await task.result
        }
    }
#endif
