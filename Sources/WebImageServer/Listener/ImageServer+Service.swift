import Hummingbird
import ServiceLifecycle

extension ImageServer {
    /// The service serving this server's routes at `address`: ``makeApplication(address:onServerRunning:)``'s
    /// Hummingbird application, or, with ``ImageServerConfiguration/reusesPort`` and a TCP address, the same routes,
    /// connection pipeline, timeouts and connection limit on a socket bound with `SO_REUSEPORT` (`ReusePortService`),
    /// so that several processes can serve one port. `onServerRunning` gets the address bound.
    public func makeService(
        address: ServerAddress, onServerRunning: @escaping @Sendable (ServerAddress) async -> Void = { _ in }
    ) -> any Service {
        guard configuration.reusesPort, case .tcp(let host, let port) = address.kind else {
            return makeApplication(address: address, onServerRunning: onServerRunning)
        }
        return ReusePortService(
            responder: makeResponder(), host: host, port: port, channel: http1Configuration,
            maxClients: configuration.maxClients, serverName: configuration.http.serverName,
            logger: configuration.logger,
            onServerRunning: { bound in await onServerRunning(address.bound(port: bound)) })
    }
}
