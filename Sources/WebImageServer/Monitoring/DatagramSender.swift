import NIOCore
import NIOPosix

/// Sends UDP datagrams from one unconnected socket, opened on first use (IPv4 or IPv6, as the agent's address): a
/// datagram nobody receives is simply lost, as DogStatsD's clients lose it.
actor DatagramSender {
    private let log: DropLog
    private var channel: (any Channel)?

    init(log: DropLog) { self.log = log }

    /// Sends `text` to `host:port`; a failure (an unknown host, no socket) is logged through the drop log.
    func send(_ text: String, host: String, port: Int) async {
        do {
            let address = try SocketAddress.makeAddressResolvingHost(host, port: port)
            let channel = try await self.channel(for: address)
            let envelope = AddressedEnvelope(remoteAddress: address, data: ByteBuffer(string: text))
            try await channel.writeAndFlush(envelope)
        } catch {
            log.dropped("DogStatsD \(host):\(port)", error)
        }
    }

    /// Closes the socket.
    func close() async {
        try? await channel?.close()
        channel = nil
    }

    private func channel(for address: SocketAddress) async throws -> any Channel {
        if let channel, channel.localAddress?.protocol == address.protocol { return channel }
        try? await channel?.close()
        let local = address.protocol == .inet6 ? "::" : "0.0.0.0"
        let made = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: local, port: 0)
            .get()
        channel = made
        return made
    }
}
