import NIOCore
import WebImage

/// The connections a ``ReusePortService`` serves, to ask each to end at shutdown (as NIO's `ServerQuiescingHelper`
/// does for Hummingbird's own server): one accepted after the shutdown began is asked at once.
final class OpenConnections: Sendable {
    private struct State {
        var channels: [ObjectIdentifier: any Channel] = [:]
        var quiescing = false
    }

    private let state = Locked(State())

    /// Keeps `channel` until it closes; asks it to end at once when the shutdown has begun.
    func insert(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let quiescing = state.withLock { state in
            state.channels[id] = channel
            return state.quiescing
        }
        channel.closeFuture.whenComplete { [state] _ in _ = state.withLock { $0.channels.removeValue(forKey: id) } }
        if quiescing { Self.quiesce(channel) }
    }

    /// Asks every open connection, and every one accepted from now on, to close after its request in flight.
    func quiesce() {
        let channels = state.withLock { state in
            state.quiescing = true
            return Array(state.channels.values)
        }
        channels.forEach(Self.quiesce)
    }

    /// Sends `ChannelShouldQuiesceEvent` through `channel`'s pipeline on its event loop, after its set-up.
    private static func quiesce(_ channel: any Channel) {
        channel.eventLoop.execute {
            channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
    }
}
