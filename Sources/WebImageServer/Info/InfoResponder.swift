import Foundation
import Hummingbird
import WebImage

/// Answers `GET /info/...`: the secret, the signature and options, the source policy, the fetch (through the same
/// fetcher, limits and SSRF policy as image requests), then the report, computed in a processing slot. Answers are
/// kept in memory by their options and source, so a repeated request is answered without decoding again.
struct InfoResponder: Sendable {
    let parser: InfoURLParser
    let policy: SourcePolicy
    let fetcher: SourceFetcher
    let gate: ProcessingGate
    let secret: RequestSecret?
    let limits: ServerLimits
    /// Seconds for `Cache-Control: max-age`.
    let ttl: Int
    private let answers = Locked(LRUStorage<InfoURLRequest, String>(costLimit: 8 << 20, countLimit: 4096))

    init(
        parser: InfoURLParser, policy: SourcePolicy, fetcher: SourceFetcher, gate: ProcessingGate,
        secret: RequestSecret?, limits: ServerLimits, ttl: Int
    ) {
        self.parser = parser
        self.policy = policy
        self.fetcher = fetcher
        self.gate = gate
        self.secret = secret
        self.limits = limits
        self.ttl = ttl
    }

    /// The response to `path` (the part after `/info`, still percent-encoded).
    func respond(path: String, request: Request) async -> Response {
        do {
            return try await answer(path: path, request: request)
        } catch {
            let negotiation = Negotiation(accept: request.headers[.accept]?.lowercased() ?? "")
            return ErrorResponse.make(error, json: negotiation.wantsJSON, vary: false)
        }
    }

    private func answer(path: String, request: Request) async throws(ImageServerError) -> Response {
        try secret?.check(request.headers[.authorization])
        let now = Int(Date().timeIntervalSince1970)
        let parsed = try parser.parse(path, now: now)
        let url = try policy.url(for: parsed.source)
        let text: String
        if let cached = answers.withLock({ $0.value(forKey: parsed) }) {
            text = cached
        } else {
            try gate.reserve()
            let source: SourceFetcher.Source
            do { source = try await fetcher.fetch(url) } catch {
                gate.unreserve()
                throw error
            }
            if let maximum = parsed.options.maxSourceFileSize, maximum > 0, source.data.count > maximum {
                gate.unreserve()
                throw ImageServerError(status: 422, "source image file is too big")
            }
            let resolution =
                parsed.options.maxSourceResolution.map { $0 > 0 ? $0 : Int.max }
                ?? limits.maxSourceResolution
            let options = parsed.options
            let report = try await gate.run(reserved: true) { () throws(ImageServerError) in
                try InfoReport.make(source.data, options: options, maxResolution: resolution).text
            }
            text = report
            answers.withLock { $0.set(text, forKey: parsed, cost: text.utf8.count) }
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "max-age=\(maxAge(parsed.options, now: now)), public"
        let body = Data((text + "\n").utf8)
        headers[.contentLength] = String(body.count)
        if request.method == .head { return Response(status: .ok, headers: headers) }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The TTL, shortened so the response does not outlive `expires`.
    private func maxAge(_ options: InfoOptions, now: Int) -> Int {
        guard let expires = options.expires else { return ttl }
        return max(0, min(ttl, expires - now))
    }
}
