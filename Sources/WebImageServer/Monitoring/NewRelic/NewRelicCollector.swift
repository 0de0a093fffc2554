import AsyncHTTPClient
import Foundation
import Logging
import NIOCore

/// The agent protocol's handshake with New Relic's collector, as imgproxy's Go agent makes it at start (protocol
/// 17): `preconnect` to the collector of the license key's region (`collector.newrelic.com`, or
/// `collector.eu01.nr-data.net` for a key `eu01x…`), then `connect` to the host it redirects to, each a
/// `POST /agent_listener/invoke_raw_method?method=…&license_key=…&protocol_version=17&marshal_format=json`. The
/// reply names the account, its trusted key and the application's id, which the trace headers and the error events
/// need.
///
/// With ``NewRelicMonitoring/endpoint`` (a proxy, or a local fake), both calls go to it and the preconnect's redirect
/// is not followed. Bodies are sent uncompressed (`Content-Encoding: identity`), which the collector takes as it
/// takes the Go agent's gzip.
struct NewRelicCollector: Sendable {
    /// The agent protocol's version.
    static let protocolVersion = 17
    /// The Go agent's delays between two attempts: 15 s, 15 s, 30 s, 1 min, 2 min, then 5 min.
    static let retryDelays: [Duration] = [15, 15, 30, 60, 120, 300].map { .seconds($0) }

    let settings: NewRelicMonitoring
    let client: HTTPClient
    let logger: Logger
    /// The variables read for `NEW_RELIC_METADATA_*`.
    let environment: [String: String]

    /// The collector of `key`'s region, as the Go agent derives it: the key's text before its first `x` names the
    /// region (`eu01xx…` is `collector.eu01.nr-data.net`); `collector.newrelic.com` for a key without one.
    static func preconnectHost(key: String) -> String {
        guard let x = key.firstIndex(of: "x"), x > key.startIndex else { return "collector.newrelic.com" }
        return "collector." + key[..<x] + ".nr-data.net"
    }

    /// Tries to connect until the collector answers, waiting `delays` between two attempts (the last one again and
    /// again), and hands the reply to `connected`; gives up when the collector says to disconnect, and ends without
    /// one when the task is cancelled. Each failure is logged, without the license key.
    func connect(
        retryingAfter delays: [Duration] = retryDelays, connected: @Sendable (NewRelicConnectReply) -> Void
    ) async {
        var attempt = 0
        while !Task.isCancelled {
            do {
                let reply = try await connect()
                logger.info(
                    "New Relic connected",
                    metadata: [
                        "app": "\(settings.appName)", "run": "\(reply.runID)", "account": "\(reply.accountID ?? "")",
                    ])
                connected(reply)
                return
            } catch {
                guard !Task.isCancelled else { return }
                if error.isDisconnect {
                    logger.error("New Relic disconnected the application", metadata: ["error": "\(error)"])
                    return
                }
                logger.warning("New Relic connect failure", metadata: ["error": "\(error)"])
            }
            guard !delays.isEmpty else { return }
            let delay = delays[min(attempt, delays.count - 1)]
            attempt += 1
            do { try await Task.sleep(for: delay) } catch { return }
        }
    }

    /// One attempt: `preconnect`, then `connect` to the host it names.
    func connect() async throws(NewRelicCollectorError) -> NewRelicConnectReply {
        let preconnect: Preconnect = try await invoke(
            "preconnect",
            base: settings.endpoint.map(\.absoluteString) ?? "https://" + Self.preconnectHost(key: settings.key),
            body: Data(#"[{"high_security":false}]"#.utf8))
        let base: String
        if let endpoint = settings.endpoint {
            base = endpoint.absoluteString
        } else {
            guard let redirect = Self.connectBase(redirectHost: preconnect.redirectHost) else {
                throw NewRelicCollectorError(method: "preconnect", reason: .malformedReply("no valid redirect_host"))
            }
            base = redirect
        }
        let body: Data
        do {
            body = try NewRelicConnectPayload(
                settings: settings, environment: environment, version: FetchSettings.currentVersion
            ).body()
        } catch { throw NewRelicCollectorError(method: "connect", reason: .malformedReply("\(error)")) }
        let reply: NewRelicConnectReply = try await invoke("connect", base: base, body: body)
        guard !reply.runID.isEmpty else {
            throw NewRelicCollectorError(method: "connect", reason: .malformedReply("no agent_run_id"))
        }
        return reply
    }

    /// The base URL of the connect for the preconnect's `redirect_host`: `https://` and the host (with a port, if
    /// any), `nil` for anything but a host.
    static func connectBase(redirectHost host: String?) -> String? {
        guard let host, !host.isEmpty,
            host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.:[]".contains($0)) }),
            let url = URL(string: "https://" + host), url.host != nil, url.path.isEmpty
        else { return nil }
        return "https://" + host
    }

    /// The URL of `method` at `base`.
    func url(_ method: String, base: String) -> String {
        let root = base.hasSuffix("/") ? String(base.dropLast()) : base
        var query = URLComponents()
        query.queryItems = [
            URLQueryItem(name: "marshal_format", value: "json"), URLQueryItem(name: "method", value: method),
            URLQueryItem(name: "license_key", value: settings.key),
            URLQueryItem(name: "protocol_version", value: String(Self.protocolVersion)),
        ]
        let encoded = (query.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        return root + "/agent_listener/invoke_raw_method?" + encoded
    }

    /// Posts `body` to `method` and reads the reply's `return_value`.
    private func invoke<Value: Decodable>(
        _ method: String, base: String, body: Data
    ) async throws(NewRelicCollectorError) -> Value {
        var request = HTTPClientRequest(url: url(method, base: base))
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.headers.add(name: "Content-Encoding", value: "identity")
        request.headers.add(name: "Accept-Encoding", value: "identity")
        request.headers.add(name: "User-Agent", value: "webimage/" + FetchSettings.currentVersion)
        request.body = .bytes(ByteBuffer(bytes: body))
        let status: UInt
        let text: ByteBuffer
        do {
            let response = try await client.execute(request, timeout: .seconds(20))
            status = response.status.code
            text = try await response.body.collect(upTo: 1 << 20)
        } catch {
            throw NewRelicCollectorError(method: method, reason: .transport("\(error)"))
        }
        return try Self.read(method, status: status, body: Data(buffer: text))
    }

    /// The `return_value` of `method`'s reply with `status` and `body`: an error for a status other than 200 or 202,
    /// for an `exception`, and for a body that is not the method's JSON.
    static func read<Value: Decodable>(
        _ method: String, status: UInt, body: Data
    ) throws(NewRelicCollectorError) -> Value {
        guard status == 200 || status == 202 else {
            throw NewRelicCollectorError(method: method, reason: .status(status))
        }
        let envelope = try? JSONDecoder().decode(Envelope<Value>.self, from: body)
        if let exception = envelope?.exception {
            throw NewRelicCollectorError(
                method: method,
                reason: .exception(type: exception.errorType ?? "unknown", message: exception.message ?? ""))
        }
        guard let value = envelope?.returnValue else {
            throw NewRelicCollectorError(method: method, reason: .malformedReply(String(decoding: body, as: UTF8.self)))
        }
        return value
    }

    /// A reply of the collector: the method's `return_value`, or an `exception`.
    private struct Envelope<Value: Decodable>: Decodable {
        let returnValue: Value?
        let exception: Exception?

        private enum CodingKeys: String, CodingKey {
            case returnValue = "return_value"
            case exception
        }
    }

    /// The protocol's exception: `{"error_type": "NewRelic::Agent::LicenseException", "message": "…"}`.
    private struct Exception: Decodable {
        let errorType: String?
        let message: String?

        private enum CodingKeys: String, CodingKey {
            case errorType = "error_type"
            case message
        }
    }

    /// The `preconnect` reply: the collector to connect to.
    private struct Preconnect: Decodable {
        let redirectHost: String?

        private enum CodingKeys: String, CodingKey {
            case redirectHost = "redirect_host"
        }
    }
}
