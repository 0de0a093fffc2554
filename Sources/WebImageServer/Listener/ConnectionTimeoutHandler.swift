import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes a connection that takes longer than ``ConnectionTimeouts`` allow to send a request or to take a response,
/// and turns keep-alive off when its timeout is zero. The wait between requests is Hummingbird's idle timeout, set to
/// ``ConnectionTimeouts/keepAlive``.
///
/// One per connection, in its pipeline after the HTTP codec; every call comes on the connection's event loop.
final class ConnectionTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timeouts: ConnectionTimeouts
    /// Closes the connection unless the request being read ends first.
    private var readDeadline: Scheduled<Void>?
    /// Closes the connection unless the response being written ends first.
    private var writeDeadline: Scheduled<Void>?
    /// Whether the first request's deadline, which runs from the connection's start, was set.
    private var started = false

    init(timeouts: ConnectionTimeouts) { self.timeouts = timeouts }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) { cancel() }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancel()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            if readDeadline == nil { readDeadline = deadline(timeouts.readRequest, context) }
        case .end:
            readDeadline?.cancel()
            readDeadline = nil
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            writeDeadline?.cancel()
            writeDeadline = deadline(timeouts.writeResponse, context)
            guard timeouts.keepAlive == .zero else { break }
            head.headerFields[.connection] = "close"
            context.write(wrapOutboundOut(.head(head)), promise: promise)
            return
        case .end:
            let written = promise ?? context.eventLoop.makePromise()
            context.write(data, promise: written)
            written.futureResult.hop(to: context.eventLoop).assumeIsolated().whenComplete { [self] _ in
                writeDeadline?.cancel()
                writeDeadline = nil
                if timeouts.keepAlive == .zero { context.close(promise: nil) }
            }
            return
        case .body: break
        }
        context.write(data, promise: promise)
    }

    /// The first request's deadline, from the connection's start.
    private func start(_ context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        readDeadline = deadline(timeouts.readRequest, context)
    }

    /// A task closing the connection after `timeout`.
    private func deadline(_ timeout: Duration, _ context: ChannelHandlerContext) -> Scheduled<Void> {
        context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(timeout)) {
            context.close(promise: nil)
        }
    }

    private func cancel() {
        readDeadline?.cancel()
        writeDeadline?.cancel()
        (readDeadline, writeDeadline) = (nil, nil)
    }
}
