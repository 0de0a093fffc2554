import Foundation
import Hummingbird
import WebImage

/// Answers `GET /info/...`: the secret, the signature and options, the source policy, the fetch (through the same
/// fetcher, limits and SSRF policy as image requests), then the report, computed in a processing slot, all within the
/// request's deadline (`--timeout`, 503 past it). Answers are kept in memory by their options and source, so a
/// repeated request is answered without decoding again, and identical requests in flight share one fetch and one
/// analysis (the package's ``WorkMerger``, as image results share theirs). Each request is counted in the metrics
/// and the request log with `endpoint` `info`.
struct InfoResponder: Sendable {
    let parser: InfoURLParser
    let policy: SourcePolicy
    let fetcher: SourceFetcher
    let gate: ProcessingGate
    let metrics: ServerMetrics
    let secret: RequestSecret?
    let limits: ServerLimits
    /// Seconds for `Cache-Control: max-age`.
    let ttl: Int
    private let answers = Locked(LRUStorage<InfoURLRequest, String>(costLimit: 8 << 20, countLimit: 4096))
    /// The analyses in flight, by request: identical requests join the one running.
    private let runs = WorkMerger<InfoURLRequest, String, Never, ImageServerError>()
    /// How many reports have been made (fetched and analysed) since the start: memory hits and joined runs do not
    /// count.
    private let made = Locked(0)

    init(
        parser: InfoURLParser, policy: SourcePolicy, fetcher: SourceFetcher, gate: ProcessingGate,
        metrics: ServerMetrics, secret: RequestSecret?, limits: ServerLimits, ttl: Int
    ) {
        self.parser = parser
        self.policy = policy
        self.fetcher = fetcher
        self.gate = gate
        self.metrics = metrics
        self.secret = secret
        self.limits = limits
        self.ttl = ttl
    }

    /// How many reports have been made since the start, for tests and monitoring.
    var madeCount: Int { made.withLock { $0 } }

    /// Callers now waiting for an analysis in flight, for tests.
    var waitingCount: Int { runs.subscriberCount() }

    /// The response to `path` (the part after `/info`, still percent-encoded), counted in the metrics.
    func respond(path: String, request: Request) async -> RequestOutcome {
        var outcome = RequestOutcome(response: Response(status: .ok), endpoint: .info)
        do {
            try await answer(path: path, request: request, into: &outcome)
        } catch {
            metrics.failed(error)
            outcome.failure = error
            let negotiation = Negotiation(accept: request.headers[.accept]?.lowercased() ?? "")
            outcome.response = ErrorResponse.make(error, json: negotiation.wantsJSON)
        }
        metrics.answered(outcome)
        return outcome
    }

    private func answer(
        path: String, request: Request, into outcome: inout RequestOutcome
    ) async throws(ImageServerError) {
        try secret?.check(request.headers[.authorization])
        let now = Int(Date().timeIntervalSince1970)
        let parsed = try parser.parse(path, now: now)
        let url = try policy.url(for: parsed.source)
        outcome.sourceHost = url.isFileURL ? "local" : url.host ?? ""
        outcome.source = url
        let text: String
        if let cached = answers.withLock({ $0.value(forKey: parsed) }) {
            (text, outcome.cache) = (cached, .memory)
        } else {
            text = try await withDeadline(limits.requestTimeout) { () async throws(ImageServerError) -> String in
                try await runs.value(for: parsed) { parsed throws(ImageServerError) in try await make(parsed, url: url)
                }
            }
            outcome.cache = .miss
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "max-age=\(maxAge(parsed.options, now: now)), public"
        let body = Data((text + "\n").utf8)
        headers[.contentLength] = String(body.count)
        outcome.bytes = body.count
        outcome.response = Response(
            status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The body of a run: the memory once more (a run that just finished may have kept it), else the fetch and the
    /// report in a processing slot, kept in memory.
    private func make(_ parsed: InfoURLRequest, url: URL) async throws(ImageServerError) -> String {
        if let cached = answers.withLock({ $0.value(forKey: parsed) }) { return cached }
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
            parsed.options.maxSourceResolution.map { $0 > 0 ? $0 : Int.max } ?? limits.maxSourceResolution
        let options = parsed.options
        made.withLock { $0 += 1 }
        metrics.processingRuns.increment()
        let text = try await gate.run(reserved: true) { () throws(ImageServerError) in
            try InfoReport.make(source.data, options: options, maxResolution: resolution).text
        }
        answers.withLock { $0.set(text, forKey: parsed, cost: text.utf8.count) }
        return text
    }

    /// The TTL, shortened so the response does not outlive `expires`.
    private func maxAge(_ options: InfoOptions, now: Int) -> Int {
        guard let expires = options.expires else { return ttl }
        return max(0, min(ttl, expires - now))
    }
}
