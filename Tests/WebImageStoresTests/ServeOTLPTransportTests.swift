#if canImport(GRPCCore)
    import AsyncHTTPClient
    import Foundation
    import HummingbirdTLS
    import NIOSSL
    import Testing
    import WebImageServer
    import WebImageTesting

    @testable import WebImageStores

    /// How a real `webimage serve` reaches its collector with imgproxy's variables alone: over OTLP/gRPC by default
    /// (traces, metrics and logs), over OTLP/HTTP with `OTEL_EXPORTER_OTLP_PROTOCOL=http`, and over TLS with the
    /// collector's CA and a client certificate given as PEM text in `IMGPROXY_OPEN_TELEMETRY_SERVER_CERT`,
    /// `_CLIENT_CERT` and `_CLIENT_KEY`. One node at a time, each awaited off the cooperative pool (the in-process
    /// collectors need its threads to answer the node's last export).
    @Suite(
        .serialized,
        .enabled(
            if: ProcessInfo.processInfo.environment["WEBIMAGE_NO_OTEL"] == nil,
            "webimage is built without grpc-swift (the sanitizer builds)")
    ) struct ServeOTLPTransportTests {
        /// What one node did: its exit status, the answer to one image request and its log.
        struct Run {
            var status: Int32
            var answer: UInt
            var log: String
        }

        /// Starts a node with `environment`, asks it for one image, stops it gracefully (which sends the last
        /// batches) and returns what it did.
        private static func run(_ environment: [String: String], name: String) async throws -> Run {
            let origin = try await Cluster.startOrigin(sources: 1)
            let home = try LocalProcess.temporaryDirectory(name)
            defer { try? FileManager.default.removeItem(at: home) }
            let executable = try #require(Cluster.executable, "webimage was not built next to the tests")
            let port = try LocalProcess.freePort()
            let node = try await LocalProcess.startAnswering(
                executable,
                [
                    "serve", "--port", "\(port)", "--cache-dir", home.appendingPathComponent("cache").path,
                    "--allow-loopback-sources",
                ],
                in: home, log: "serve", environment: environment, readyURL: "http://127.0.0.1:\(port)/health")
            let path = try ImageURLBuilder(signer: nil).url(
                options: "rs:fit:32:32", source: origin.url("/s0.jpg").absoluteString)
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)"), timeout: .seconds(30))
            _ = try await response.body.collect(upTo: 16 << 20)
            let status = await node.terminateOffPool()
            try await origin.shutdown()
            let log = (try? String(contentsOf: home.appendingPathComponent("serve.log"), encoding: .utf8)) ?? ""
            return Run(status: status, answer: response.status.code, log: log)
        }

        /// Whether `body` holds `text`'s bytes (a protobuf message holds its strings as they are).
        private static func holds(_ body: Data, _ text: String) -> Bool { body.range(of: Data(text.utf8)) != nil }

        @Test func tracesMetricsAndLogsGoOverGRPCByDefault() async throws {
            let receiver = try await OTLPGRPCReceiver.start()
            let run = try await Self.run(
                [
                    "IMGPROXY_OPEN_TELEMETRY_ENABLE": "true", "IMGPROXY_OPEN_TELEMETRY_ENABLE_METRICS": "true",
                    "IMGPROXY_OPEN_TELEMETRY_ENABLE_LOGS": "true", "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint,
                    "OTEL_SERVICE_NAME": "otlp-grpc-node", "OTEL_METRIC_EXPORT_INTERVAL": "500",
                ], name: "otel-grpc")
            let exports = receiver.exports
            await receiver.stop()
            #expect(run.status == 0 && run.answer == 200, "\(run.log)")
            let traces = exports.filter { $0.signal == "traces" }.map(\.body)
            #expect(traces.contains { Self.holds($0, "otlp-grpc-node") }, "\(exports.map(\.signal)) \(run.log)")
            for span in ["options", "source fetch", "processing", "encode"] {
                #expect(traces.contains { Self.holds($0, span) }, "no span \(span)")
            }
            #expect(exports.contains { $0.signal == "metrics" && Self.holds($0.body, "requests_total") })
            #expect(exports.contains { $0.signal == "logs" && Self.holds($0.body, "source_host") })
        }

        @Test func aGRPCEndpointWithoutSchemeIsPlainTextWithInsecure() async throws {
            let receiver = try await OTLPGRPCReceiver.start()
            let run = try await Self.run(
                [
                    "IMGPROXY_OPEN_TELEMETRY_ENABLE": "true",
                    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "127.0.0.1:\(receiver.port)",
                    "OTEL_EXPORTER_OTLP_INSECURE": "true",
                ], name: "otel-grpc-insecure")
            let exports = receiver.exports
            await receiver.stop()
            #expect(run.status == 0 && run.answer == 200, "\(run.log)")
            #expect(exports.contains { $0.signal == "traces" && Self.holds($0.body, "processing") }, "\(run.log)")
        }

        @Test func httpStandsForHTTPProtobufAsInImgproxy() async throws {
            let receiver = try await OTLPReceiver.start()
            let run = try await Self.run(
                [
                    "IMGPROXY_OPEN_TELEMETRY_ENABLE": "true", "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint,
                    "OTEL_EXPORTER_OTLP_PROTOCOL": "http",
                ], name: "otel-http-alias")
            let exports = receiver.exports
            await receiver.stop()
            #expect(run.status == 0 && run.answer == 200, "\(run.log)")
            #expect(!exports.isEmpty, "\(run.log)")
            #expect(exports.allSatisfy { $0.signal == "traces" && $0.contentType == "application/x-protobuf" })
        }

        @Test func anUnknownProtocolStopsTheStart() async throws {
            let executable = try #require(Cluster.executable, "webimage was not built next to the tests")
            let home = try LocalProcess.temporaryDirectory("otel-bad-protocol")
            defer { try? FileManager.default.removeItem(at: home) }
            let node = try LocalProcess.start(
                executable, ["serve", "--port", "\(try LocalProcess.freePort())"], in: home, log: "serve",
                environment: [
                    "IMGPROXY_OPEN_TELEMETRY_ENABLE": "true", "OTEL_EXPORTER_OTLP_PROTOCOL": "carrier-pigeon",
                ])
            node.process.waitUntilExit()
            let log = (try? String(contentsOf: home.appendingPathComponent("serve.log"), encoding: .utf8)) ?? ""
            #expect(node.process.terminationStatus == 64, "\(log)")
            #expect(log.contains("OTEL_EXPORTER_OTLP_PROTOCOL"), "\(log)")
        }

        /// A start that fails after the exporters were set up (a fallback image that cannot be fetched) exits 64: the
        /// exporters' HTTP clients, made only at their first export, are not left open (one released without its
        /// shutdown traps).
        @Test func aFailedStartWithEveryExporterExits64() async throws {
            let executable = try #require(Cluster.executable, "webimage was not built next to the tests")
            let home = try LocalProcess.temporaryDirectory("otel-failed-start")
            defer { try? FileManager.default.removeItem(at: home) }
            let node = try LocalProcess.start(
                executable,
                [
                    "serve", "--port", "\(try LocalProcess.freePort())", "--allow-loopback-sources",
                    "--fallback-image-url", "http://127.0.0.1:\(try LocalProcess.freePort())/fallback.png",
                ], in: home, log: "serve",
                environment: [
                    "IMGPROXY_OPEN_TELEMETRY_ENABLE": "true", "IMGPROXY_OPEN_TELEMETRY_ENABLE_METRICS": "true",
                    "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:\(try LocalProcess.freePort())",
                    "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf", "IMGPROXY_OPEN_TELEMETRY_ENABLE_LOGS": "true",
                ])
            node.process.waitUntilExit()
            let log = (try? String(contentsOf: home.appendingPathComponent("serve.log"), encoding: .utf8)) ?? ""
            #expect(node.process.terminationStatus == 64, "\(log)")
            #expect(log.contains("fallback"), "\(log)")
        }

        /// A collector over HTTPS that asks for a client certificate signed by `authority`.
        private static func tlsReceiver(_ authority: TestCertificates) async throws -> OTLPReceiver {
            var tls = TLSConfiguration.makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMFile(authority.url("server.pem").path).map {
                    .certificate($0)
                },
                privateKey: .privateKey(try NIOSSLPrivateKey(file: authority.url("server.key").path, format: .pem)))
            tls.certificateVerification = .noHostnameVerification
            tls.trustRoots = .file(authority.url("ca.pem").path)
            return try await OTLPReceiver.start(server: .tls(tlsConfiguration: tls), scheme: "https")
        }

        /// imgproxy's variables for `receiver` over TLS: the CA of `authority` and the client certificate of
        /// `client`, their line breaks written as `\n` as imgproxy allows.
        private static func tlsEnvironment(
            _ receiver: OTLPReceiver, authority: TestCertificates, client: TestCertificates
        ) throws -> [String: String] {
            func escaped(_ pem: String) -> String { pem.replacingOccurrences(of: "\n", with: "\\n") }
            return [
                "IMGPROXY_OPEN_TELEMETRY_ENABLE": "true", "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint,
                "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
                "IMGPROXY_OPEN_TELEMETRY_SERVER_CERT": escaped(try authority.pem("ca.pem")),
                "IMGPROXY_OPEN_TELEMETRY_CLIENT_CERT": escaped(try client.pem("client.pem")),
                "IMGPROXY_OPEN_TELEMETRY_CLIENT_KEY": escaped(try client.pem("client.key")),
            ]
        }

        @Test func spansReachACollectorThatWantsAClientCertificate() async throws {
            let home = try LocalProcess.temporaryDirectory("otel-tls")
            defer { try? FileManager.default.removeItem(at: home) }
            let authority = try TestCertificates("collector", in: home)
            let receiver = try await Self.tlsReceiver(authority)
            let run = try await Self.run(
                try Self.tlsEnvironment(receiver, authority: authority, client: authority), name: "otel-mtls")
            let exports = receiver.exports
            await receiver.stop()
            #expect(run.status == 0 && run.answer == 200, "\(run.log)")
            #expect(exports.contains { $0.signal == "traces" && Self.holds($0.body, "processing") }, "\(run.log)")
        }

        @Test func spansReachAGRPCCollectorOverMutualTLSEvenWhenItsEndpointSaysHTTP() async throws {
            let home = try LocalProcess.temporaryDirectory("otel-grpc-tls")
            defer { try? FileManager.default.removeItem(at: home) }
            let authority = try TestCertificates("collector", in: home)
            let receiver = try await OTLPGRPCReceiver.start(
                security: .mTLS(
                    certificateChain: [.file(path: authority.url("server.pem").path, format: .pem)],
                    privateKey: .file(path: authority.url("server.key").path, format: .pem)
                ) { $0.trustRoots = .certificates([.file(path: authority.url("ca.pem").path, format: .pem)]) })
            // By name: grpc-swift sends the host as SNI, which cannot be an IP address.
            let endpoint = "http://localhost:\(receiver.port)"
            let run = try await Self.run(
                [
                    "IMGPROXY_OPEN_TELEMETRY_ENABLE": "true", "OTEL_EXPORTER_OTLP_ENDPOINT": endpoint,
                    "IMGPROXY_OPEN_TELEMETRY_SERVER_CERT": try authority.pem("ca.pem"),
                    "IMGPROXY_OPEN_TELEMETRY_CLIENT_CERT": try authority.pem("client.pem"),
                    "IMGPROXY_OPEN_TELEMETRY_CLIENT_KEY": try authority.pem("client.key"),
                ], name: "otel-grpc-mtls")
            let exports = receiver.exports
            await receiver.stop()
            #expect(run.status == 0 && run.answer == 200, "\(run.log)")
            #expect(exports.contains { $0.signal == "traces" && Self.holds($0.body, "processing") }, "\(run.log)")
        }

        @Test func aCollectorSignedByAnotherAuthorityGetsNothingAndTheFailureIsLogged() async throws {
            let home = try LocalProcess.temporaryDirectory("otel-tls-wrong-ca")
            defer { try? FileManager.default.removeItem(at: home) }
            let authority = try TestCertificates("collector", in: home)
            let stranger = try TestCertificates("stranger", in: home)
            let receiver = try await Self.tlsReceiver(authority)
            // The exporter keeps trying to connect; the last batch gives up after 2 s, within the shutdown's grace.
            let environment = try Self.tlsEnvironment(receiver, authority: stranger, client: authority)
            let run = try await Self.run(
                environment.merging(["OTEL_BSP_EXPORT_TIMEOUT": "2000"]) { $1 }, name: "otel-wrong-ca")
            let exports = receiver.exports
            await receiver.stop()
            #expect(run.status == 0 && run.answer == 200, "\(run.log)")
            #expect(exports.isEmpty)
            #expect(run.log.contains("Failed to export"), "\(run.log)")
        }
    }
#endif
