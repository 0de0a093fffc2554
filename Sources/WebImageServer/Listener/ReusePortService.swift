import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import WebImage

/// The image server on a TCP socket bound with `SO_REUSEPORT` (imgproxy's `IMGPROXY_SO_REUSEPORT`): several
/// processes bind one port and the kernel spreads the connections over them.
///
/// Hummingbird's `Server` makes its listening socket itself and sets only `SO_REUSEADDR` on it, so this service drives
/// Hummingbird's public `HTTP1Channel` (the same per-connection pipeline, the same additional handlers and idle
/// timeout) from a `ServerBootstrap` of its own, with what Hummingbird's `Server` and `Application` add around it: the
/// connection limit (`AvailableConnectionsChannelHandler`), the `Date` and `Server` headers, an error the routes did
/// not turn into a response answered 500, and a graceful shutdown that stops accepting, asks every connection to end
/// after its request in flight (`ChannelShouldQuiesceEvent`, as NIO's quiescing helper does) and waits for them. Used
/// only with the setting on; without it the server is Hummingbird's own `Application`.
struct ReusePortService<Responder: HTTPResponder>: Service where Responder.Context == BasicRequestContext {
    let responder: Responder
    let host: String
    let port: Int
    let channel: HTTP1Channel.Configuration
    /// The most connections served at once; 0 = no limit.
    let maxClients: Int
    let serverName: String?
    let logger: Logger
    /// Called with the port bound, once the socket listens.
    let onServerRunning: @Sendable (Int) async -> Void

    func run() async throws {
        let http = HTTP1Channel(
            responder: Self.respond(responder, serverName: serverName, logger: logger), configuration: channel)
        let connections = OpenConnections()
        let (logger, maxClients) = (logger, maxClients)
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(Self.reusePort, value: 1)
            .serverChannelInitializer { server in
                server.eventLoop.makeCompletedFuture {
                    guard maxClients > 0 else { return }
                    try server.pipeline.syncOperations.addHandler(
                        AvailableConnectionsChannelHandler(maxConnections: maxClients))
                }
            }
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
        let listener = try await bootstrap.bind(host: host, port: port, serverBackPressureStrategy: nil) { child in
            connections.insert(child)
            return http.setup(channel: child, logger: logger)
        }
        await onServerRunning(listener.channel.localAddress?.port ?? port)
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                do {
                    try await listener.executeThenClose { inbound in
                        for try await child in inbound {
                            group.addTask { await http.handle(value: child, logger: logger) }
                        }
                    }
                } catch {
                    logger.error("accepting connections failed", metadata: ["error": "\(error)"])
                }
            }
        } onGracefulShutdown: {
            listener.channel.close(promise: nil)
            connections.quiesce()
        }
    }

    /// `SO_REUSEPORT`, which NIO names no constant for.
    static var reusePort: ChannelOptions.Types.SocketOption {
        ChannelOptions.Types.SocketOption(level: .socket, name: NIOBSDSocket.Option(rawValue: SO_REUSEPORT))
    }

    /// Hummingbird's `Application` responder: the request context, the routes' response (500 for an error they did
    /// not answer), the `Date` header (made once a second) and the `Server` header.
    static func respond(
        _ responder: Responder, serverName: String?, logger: Logger
    ) -> HTTPChannelHandler.Responder {
        let dates = ResponseDates()
        return { request, writer, channel in
            let context = BasicRequestContext(source: .init(channel: channel, logger: logger))
            var response: Response
            do { response = try await responder.respond(to: request, context: context) } catch {
                response = Response(status: .internalServerError)
            }
            response.headers[.date] = dates.now()
            if let serverName { response.headers[.server] = serverName }
            try await writer.write(response: response.head, body: response.body)
        }
    }
}
