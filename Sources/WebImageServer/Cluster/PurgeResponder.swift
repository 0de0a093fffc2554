import AsyncHTTPClient
import Crypto
import Foundation
import Hummingbird
import Logging
import NIOCore
import WebImageStores

/// `POST /admin/purge?source=<percent-encoded URL>&signature=<base64url of HMAC-SHA256(purge key, source)>`: removes
/// the source's original and every result made from it from the shared tier, from this node and, unless the request
/// was itself forwarded, from every peer. Answers 200 with the number of objects and entries removed, 403 for a bad
/// signature, 400 without a source, 502 when the shared tier or a peer could not be purged (the purge may then be
/// repeated: it is idempotent).
struct PurgeResponder: Sendable {
    /// Marks a purge forwarded by a peer, which is not forwarded again.
    static let forwardedHeader = HTTPFields.Element.Name("X-Webimage-Purge-Forwarded")!

    let key: [UInt8]
    let store: ResultStore
    let fetcher: SourceFetcher
    let policy: SourcePolicy
    let shared: SharedStore?
    let peers: [URL]
    let logger: Logger

    func respond(_ request: Request) async -> Response {
        let query = request.uri.queryParameters
        guard let source = query["source"].map(String.init), !source.isEmpty else {
            return Response.text(.badRequest, "source is missing\n")
        }
        guard let signature = query["signature"].flatMap({ OptionArguments.base64URL(String($0)) }),
            HMAC<SHA256>.isValidAuthenticationCode(
                signature, authenticating: Array(source.utf8), using: SymmetricKey(data: key))
        else {
            return Response.text(.forbidden, "invalid signature\n")
        }
        var removed = await store.forget(source: source)
        if let url = try? policy.url(for: source), await fetcher.forget(url) { removed += 1 }
        var failures: [String] = []
        if let shared {
            do { removed += try await shared.purge(source: source) } catch { failures.append("shared store") }
        }
        if request.headers[Self.forwardedHeader] == nil {
            for peer in peers {
                do { removed += try await forward(request, to: peer) } catch { failures.append(peer.absoluteString) }
            }
        }
        logger.info("purge", metadata: ["removed": "\(removed)", "failed": "\(failures)"])
        guard failures.isEmpty else {
            return Response.text(.badGateway, "removed \(removed); not purged: \(failures.joined(separator: ", "))\n")
        }
        return Response.text(.ok, "removed \(removed)\n")
    }

    /// Sends the same purge to `peer`, marked as forwarded; returns what it removed.
    private func forward(_ request: Request, to peer: URL) async throws -> Int {
        var forwarded = HTTPClientRequest(url: peer.baseString + "/admin/purge?" + (request.uri.query ?? ""))
        forwarded.method = .POST
        forwarded.headers.add(name: Self.forwardedHeader.rawName, value: "1")
        let response = try await HTTPClient.shared.execute(forwarded, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1024)
        guard response.status == .ok else { throw ImageServerError(status: 502, "peer answered \(response.status)") }
        let text = String(buffer: body).trimmingCharacters(in: .whitespacesAndNewlines)
        return Int(text.split(separator: " ").last ?? "") ?? 0
    }
}
