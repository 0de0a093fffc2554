import Foundation
import NIOCore
import NIOHTTP1

extension TestImageServer {
    typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>

    /// Answers the requests of one connection in turn until the client closes it or a reply closes it.
    func serve(_ connection: Connection) async {
        let channel = connection.channel
        let tracked = track(channel)
        defer { if tracked { untrack(channel) } }
        try? await connection.executeThenClose { inbound, _ in
            guard tracked else { return }
            var head: HTTPRequestHead?
            for try await part in inbound {
                switch part {
                case .head(let requestHead): head = requestHead
                case .body: continue
                case .end:
                    guard let request = head else { continue }
                    head = nil
                    let keepOpen = await answer(request, channel: connection.channel)
                    if !keepOpen { return }
                }
            }
        }
    }

    /// Writes the reply to `request`; returns whether the connection may be reused.
    private func answer(_ request: HTTPRequestHead, channel: any Channel) async -> Bool {
        let path = URLComponents(string: "http://host\(request.uri)")?.path ?? request.uri
        let headers = request.headers.map { (name: $0.name, value: $0.value) }
        update { stats in
            stats.requests[path, default: 0] += 1
            stats.log.append(path)
            stats.headers[path, default: []].append(headers)
            stats.inFlight += 1
            stats.maxInFlight = max(stats.maxInFlight, stats.inFlight)
        }
        var answering = true
        let done = {
            if answering { self.update { $0.inFlight -= 1 } }
            answering = false
        }
        defer { done() }
        let reply = reply(uri: request.uri, headers: headers)
        if let gate = reply.gate { await pass(gate: gate) }
        if let delay = reply.delay { await pause(for: delay) }
        do {
            return try await write(reply, to: channel, beforeLastBytes: done)
        } catch {
            update { $0.aborted[path, default: 0] += 1 }
            return false
        }
    }

    /// Writes `reply`, each part flushed to the socket before the next (so a client that goes away is noticed at
    /// once and a closing reply is fully sent before the close); returns whether the connection may be reused.
    private func write(_ reply: Reply, to channel: any Channel, beforeLastBytes: () -> Void) async throws -> Bool {
        func send(_ part: HTTPServerResponsePart) async throws { try await channel.writeAndFlush(part).get() }
        var head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: reply.status))
        for (name, value) in reply.headers { head.headers.add(name: name, value: value) }
        let total = reply.bodyCount
        let sendCount = min(total, reply.truncateAfter ?? total)
        if !reply.chunked && reply.status != 304 {
            head.headers.replaceOrAdd(name: "Content-Length", value: "\(total + reply.lie)")
        }
        let closes = reply.lie > 0 || reply.truncateAfter != nil
        if closes { head.headers.replaceOrAdd(name: "Connection", value: "close") }
        if sendCount == 0 { beforeLastBytes() }
        try await send(.head(head))
        var offset = 0
        while offset < sendCount {
            let length = min(reply.chunkSize, sendCount - offset)
            let buffer: ByteBuffer
            switch reply.body {
            case .bytes(let data):
                buffer = ByteBuffer(bytes: data[data.startIndex + offset..<data.startIndex + offset + length])
            case .generated(_, let seed):
                buffer = ByteBuffer(bytes: Self.generate(count: length, seed: seed, offset: offset))
            }
            if offset + length == sendCount { beforeLastBytes() }
            try await send(.body(.byteBuffer(buffer)))
            offset += length
            if let drip = reply.drip, offset < sendCount { await pause(for: drip) }
        }
        if closes { return false }  // leave the body short or unterminated: the connection just closes
        try await send(.end(nil))
        return true
    }
}
