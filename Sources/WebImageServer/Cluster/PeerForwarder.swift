import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import WebImage
import WebImageStores

/// `--peer-forward`: sends a request to the node that owns its result, so that a result is processed and cached on
/// one node however its URL is spelled.
///
/// The owner is chosen on the ring nginx's `hash $request_uri consistent` builds (``ConsistentHashRing``) from this
/// node and its peers, named `host:port` as in the `upstream` block, for the result's canonical signed URL (what
/// `webimage url` prints). A request in the canonical spelling therefore reaches its owner through nginx and is never
/// forwarded; another spelling is forwarded once, as the canonical URL, marked so that the owner does not forward
/// it again. An owner that cannot be reached is skipped for a few seconds and this node answers itself.
struct PeerForwarder: Sendable {
    /// Marks a forwarded request; its value is the forwarding node's name. A marked request is never forwarded.
    static let forwardedHeader = HTTPFields.Element.Name("X-Webimage-Forwarded-By")!
    /// The request headers the owner needs to answer as this node would.
    private static let requestHeaders: [HTTPFields.Element.Name] = [
        .accept, .ifModifiedSince, .ifNoneMatch, .authorization,
    ]
    /// The response headers passed back to the client (with the canonical `Link` and the debug headers, when the
    /// owner sends them).
    private static let responseHeaders: [HTTPFields.Element.Name] =
        [
            .contentType, .contentLength, .cacheControl, .eTag, .lastModified, .vary, .contentDisposition, .retryAfter,
            ImageResponder.linkHeader,
        ] + DebugFacts.names
    /// How long an owner that could not be reached is skipped.
    static let downTime = Duration.seconds(5)

    let ring: ConsistentHashRing
    /// This node's name on the ring.
    let name: String
    /// The mount path every node serves images under (the path of ``ImageServerConfiguration/selfURL``).
    let mount: String
    /// The peers' base URLs by ring name.
    let peers: [String: String]
    let builder: ImageURLBuilder
    let client: HTTPClient
    let logger: Logger
    /// Until when each unreachable owner is skipped, by ring name.
    private let down = Locked<[String: ContinuousClock.Instant]>([:])

    /// A forwarder for `configuration`'s ring, or `nil` without `forwardsToOwner`, a `selfURL` or peers.
    init?(configuration: ImageServerConfiguration) {
        guard configuration.forwardsToOwner, let me = configuration.selfURL.flatMap(Self.name(of:)),
            !configuration.peers.isEmpty
        else { return nil }
        var peers: [String: String] = [:]
        for url in configuration.peers {
            guard let peer = Self.name(of: url), peer != me else { continue }
            peers[peer] = url.baseString
        }
        name = me
        mount = configuration.selfURL.map { URL(string: $0.baseString)?.path ?? "" } ?? ""
        self.peers = peers
        ring = ConsistentHashRing(servers: [me] + peers.keys.sorted())
        builder = ImageURLBuilder(signer: configuration.signer, argumentsSeparator: configuration.argumentsSeparator)
        logger = configuration.logger
        var http = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .milliseconds(500), read: .seconds(30)))
        http.connectionPool.idleTimeout = .seconds(30)
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: http)
    }

    /// The URL to ask the peer that owns the result of `parsed` for it (the peer's base and the canonical path); `nil`
    /// when this node owns it, the request was forwarded already, or the owner is skipped as unreachable.
    func owner(of parsed: ImageURLRequest, request: Request) -> String? {
        guard request.headers[Self.forwardedHeader] == nil else { return nil }
        let path = builder.url(parsed.options, source: parsed.source)
        guard let owner = ring.server(for: mount + path), owner != name, let base = peers[owner] else { return nil }
        let now = ContinuousClock.now
        let skipped = down.withLock { down in
            if let until = down[owner], until > now { return true }
            down[owner] = nil
            return false
        }
        return skipped ? nil : base + path
    }

    /// Asks the owner at `url` and returns its answer, the body streamed through; `nil` when it could not be reached
    /// or gave no answer before `timeout` (it is then skipped for ``downTime``), so that this node answers itself.
    func forward(to url: String, request: Request, timeout: Duration) async -> Response? {
        var forwarded = HTTPClientRequest(url: url)
        for field in Self.requestHeaders {
            if let value = request.headers[field] { forwarded.headers.add(name: field.rawName, value: value) }
        }
        forwarded.headers.add(name: Self.forwardedHeader.rawName, value: name)
        do {
            let response = try await client.execute(forwarded, timeout: TimeAmount(timeout))
            var headers = HTTPFields()
            for field in Self.responseHeaders {
                if let value = response.headers.first(name: field.rawName) { headers[field] = value }
            }
            return Response(
                status: HTTPResponse.Status(code: Int(response.status.code)), headers: headers,
                body: ResponseBody(asyncSequence: response.body))
        } catch {
            let owner = URL(string: url).flatMap(Self.name(of:)) ?? url
            down.withLock { $0[owner] = .now + Self.downTime }
            logger.warning("peer unreachable; answering here", metadata: ["peer": "\(owner)", "error": "\(error)"])
            return nil
        }
    }

    /// Closes the forwarding client's connections.
    func shutdown() async {
        try? await client.shutdown()
    }

    /// `host:port` of `url`, as nginx's `upstream` block names a server (the port defaults to the scheme's).
    static func name(of url: URL) -> String? {
        guard let host = url.host, !host.isEmpty else { return nil }
        let port = url.port ?? (url.scheme == "https" ? 443 : 80)
        return (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }
}
