import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes a connection that takes longer than ``ConnectionTimeouts`` allow to send a request or to take a response,
/// and turns keep-alive off when its timeout is zero. The wait between requests is Hummingbird's idle timeout, set to
/// ``ConnectionTimeouts/keepAlive``.
///
/// A request costs two clock reads, not a timer of its own (issue 29: a scheduled task, a promise and a callback
/// per request were a measurable share of a cache hit). One timer per connection is armed for the earliest pending
/// deadline and, when it fires, closes the connection if a deadline has passed, else moves to the next one. A
/// response counts as taken once its end is written and the channel is writable again (what is left is in the
/// socket's buffer, as a Go server's write returns then).
///
/// One per connection, in its pipeline after the HTTP codec; every call comes on the connection's event loop.
final class ConnectionTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timeouts: ConnectionTimeouts
    /// When the request being read began (the connection's start for the first); `nil` between requests.
    private var readStart: NIODeadline?
    /// When the response being written began; `nil` once it is taken.
    private var writeStart: NIODeadline?
    /// Whether the response being written has its end written.
    private var writeEnded = false
    /// The connection's one timer, armed while a deadline is pending, and when it fires.
    private var timer: (task: Scheduled<Void>, deadline: NIODeadline)?
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
            if readStart == nil {
                readStart = .now()
                arm(context)
            }
        case .end: readStart = nil
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            writeStart = .now()
            writeEnded = false
            arm(context)
            guard timeouts.keepAlive == .zero else { break }
            head.headerFields[.connection] = "close"
            context.write(wrapOutboundOut(.head(head)), promise: promise)
            return
        case .end:
            writeEnded = true
            guard timeouts.keepAlive == .zero else { break }
            let written = promise ?? context.eventLoop.makePromise()
            context.write(data, promise: written)
            written.futureResult.hop(to: context.eventLoop).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
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
        readStart = .now()
        arm(context)
    }

    /// The earliest deadline still pending, forgetting a response that has been taken.
    private func nextDeadline(_ context: ChannelHandlerContext) -> NIODeadline? {
        if writeStart != nil, writeEnded, context.channel.isWritable { writeStart = nil }
        let read = readStart.map { $0 + TimeAmount(timeouts.readRequest) }
        let write = writeStart.map { $0 + TimeAmount(timeouts.writeResponse) }
        switch (read, write) {
        case (let read?, let write?): return min(read, write)
        case (let read?, nil): return read
        case (nil, let write?): return write
        case (nil, nil): return nil
        }
    }

    /// Arms the timer for the earliest pending deadline, unless it is armed for that one or an earlier one already (it
    /// moves on when it fires): with equal timeouts, as by default, a request never moves it.
    private func arm(_ context: ChannelHandlerContext) {
        guard let deadline = nextDeadline(context) else { return }
        if let timer {
            guard deadline < timer.deadline else { return }
            timer.task.cancel()
        }
        let task = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            timer = nil
            guard let next = nextDeadline(context) else { return }
            if next <= .now() {
                context.close(promise: nil)
            } else {
                arm(context)
            }
        }
        timer = (task, deadline)
    }

    private func cancel() {
        timer?.task.cancel()
        timer = nil
        (readStart, writeStart) = (nil, nil)
    }
}
