import Foundation
import Hummingbird
import WebImage

/// Answers one image request: parse and verify, check validators, then the result store, then the response.
struct ImageResponder: Sendable {
    let parser: ImageURLParser
    let policy: SourcePolicy
    let fetcher: SourceFetcher
    let store: ResultStore
    let processor: ImageProcessor
    /// The server's watermark image; `nil` when it has none (the `watermark` option then changes nothing).
    let watermarks: WatermarkProvider?
    /// The image answered when a source cannot be loaded or decoded; `nil` answers the error.
    let fallback: FallbackImage?
    let gate: ProcessingGate
    let metrics: ServerMetrics
    /// The paths answered so far, for repeated requests.
    let answered = AnsweredPaths()
    /// Sends a request to the node that owns its result (`--peer-forward`); `nil` answers every request here.
    let forwarder: PeerForwarder?
    /// The `Authorization` image requests must carry (`--secret`); `nil` asks for none.
    let secret: RequestSecret?
    let configuration: ImageServerConfiguration

    /// A response and what the request log and the metrics say about it.
    typealias Outcome = RequestOutcome

    func respond(path: String, request: Request) async -> Outcome {
        let now = Int(Date().timeIntervalSince1970)
        let memo = AnsweredPaths.Key(path: path, accepts: acceptedFormats(request))
        var outcome: Outcome
        if !mayPassCookies(request), let repeated = await answerRepeated(memo, request: request, now: now) {
            outcome = repeated
        } else {
            let negotiation = Negotiation(accept: request.headers[.accept]?.lowercased() ?? "")
            outcome = Outcome(response: Response(status: .ok))
            do {
                try await answer(memo, request: request, negotiation: negotiation, now: now, into: &outcome)
            } catch {
                metrics.failed(error)
                outcome.response = ErrorResponse.make(error, json: negotiation.wantsJSON, vary: negotiates)
            }
        }
        metrics.answered(outcome)
        return outcome
    }

    /// Whether responses depend on `Accept` (`Vary: Accept`).
    var negotiates: Bool {
        configuration.autoWebP || configuration.autoAVIF || configuration.autoJXL || configuration.enforcesWebP
            || configuration.enforcesAVIF || configuration.enforcesJXL
    }

    private func answer(
        _ memo: AnsweredPaths.Key, request: Request, negotiation: Negotiation, now: Int, into outcome: inout Outcome
    ) async throws(ImageServerError) {
        let (parsed, url) = try await tracing.stage("options") { _ throws(ImageServerError) in
            try secret?.check(request.headers[.authorization])
            let parsed = try parser.parse(memo.path, now: now)
            return (parsed, try policy.url(for: parsed.source))
        }
        outcome.sourceHost = url.isFileURL ? "local" : url.host ?? ""
        let options = parsed.options
        var headers = HTTPFields()
        headers[.cacheControl] = "max-age=\(maxAge(expires: options.expires, now: now)), public"
        if options.raw {
            try await answerRaw(url: url, parsed: parsed, request: request, headers: headers, into: &outcome)
            return
        }
        let format = resultFormat(options, negotiation)
        if let cookies = passedCookies(request, source: url) {
            if negotiates { headers[.vary] = "Accept" }
            try await answerWithCookies(
                cookies, url: url, parsed: parsed, format: format, request: request, headers: headers, now: now,
                into: &outcome)
            return
        }
        let key = ResultKey(options: options, source: parsed.source, format: format)
        let etag = key.etag
        headers[.eTag] = etag
        if negotiates { headers[.vary] = "Accept" }

        if let ifNoneMatch = request.headers[.ifNoneMatch], Negotiation.matches(ifNoneMatch: ifNoneMatch, etag: etag) {
            outcome.cache = .notModified
            outcome.response = Response(status: .notModified, headers: headers)
            return
        }
        if let since = request.headers[.ifModifiedSince].flatMap(HTTPDate.date), request.headers[.ifNoneMatch] == nil,
            let hit = await store.cached(key)?.0,
            hit.lastModified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
        {
            headers[.lastModified] = hit.lastModifiedHeader
            outcome.cache = .notModified
            outcome.response = Response(status: .notModified, headers: headers)
            return
        }

        // A hit in this node's tiers answers at once, without the deadline's timer task (with peers, only a memory
        // hit: the disk is left to the owner of the result).
        let result: StoredResult
        let source: CacheOutcome
        if let hit = await tracedLocalHit(key) {
            (result, source) = hit
        } else if let forwarder, let owner = forwarder.owner(of: parsed, request: request),
            let answer = await forward(to: owner, through: forwarder, request: request)
        {
            metrics.peerForwards.increment()
            outcome.cache = .forwarded
            outcome.bytes = request.method == .head ? 0 : answer.headers[.contentLength].flatMap { Int($0) } ?? 0
            outcome.response = answer
            return
        } else {
            do {
                (result, source) = try await withDeadline(configuration.limits.requestTimeout) {
                    () async throws(ImageServerError) -> (StoredResult, CacheOutcome) in
                    try await store.result(for: key) { () async throws(ImageServerError) in
                        try await make(url: url, options: options, format: format)
                    }
                }
            } catch {
                guard error.isSourceFailure, let fallback else { throw error }
                try await answerFallback(
                    fallback, failure: error, parsed: parsed, format: format, request: request, headers: headers,
                    now: now, into: &outcome)
                return
            }
        }
        outcome.cache = source
        let disposition = disposition(parsed, format: result.format)
        answered.remember(
            AnsweredPaths.Answer(
                key: key, format: result.format, expires: options.expires,
                cacheControl: options.expires == nil ? headers[.cacheControl] : nil, disposition: disposition,
                sourceHost: outcome.sourceHost),
            for: memo)
        outcome.respond(with: result, headers: headers, disposition: disposition, head: request.method == .head)
    }

    /// Records stage spans when ``ImageServerConfiguration/tracesRequests`` is on.
    var tracing: RequestTracing { RequestTracing(enabled: configuration.tracesRequests) }

    /// ``localHit(_:)`` in a `result cache` span saying which tier answered.
    func tracedLocalHit(_ key: ResultKey) async -> (StoredResult, CacheOutcome)? {
        await tracing.stage("result cache") { span in
            let hit = await localHit(key)
            span?.attributes["webimage.cache"] = hit?.1.rawValue ?? "miss"
            return hit
        }
    }

    /// Asks `owner` for its answer, in a `peer forward` span.
    private func forward(to owner: String, through forwarder: PeerForwarder, request: Request) async -> Response? {
        await tracing.stage("peer forward", kind: .client) { span in
            span?.attributes["webimage.peer"] = owner
            return await forwarder.forward(to: owner, request: request, timeout: configuration.limits.requestTimeout)
        }
    }

    /// The result `key` from memory, or also from disk when the server forwards to no peer.
    func localHit(_ key: ResultKey) async -> (StoredResult, CacheOutcome)? {
        if forwarder == nil { return await store.local(key) }
        return store.memory.result(forKey: key).map { ($0, .memory) }
    }

    /// Fetches the source (and the watermark, when the options ask for it) and processes it in a processing slot,
    /// recording each stage.
    private func make(
        url: URL, options: ProcessingOptions, format: ImageFormat?
    ) async throws(ImageServerError) -> ProcessedImage {
        try gate.reserve()
        let source: SourceFetcher.Source
        do {
            source = try await tracing.stage("source fetch") { span throws(ImageServerError) in
                span?.attributes["server.address"] = url.host
                return try await fetcher.fetch(url, maxSize: sourceSizeLimit(options))
            }
        } catch {
            gate.unreserve()
            throw error
        }
        var result = try await process(source.data, options: options, format: format, reserved: true)
        result.sourceLastModified = source.lastModified
        return result
    }

    /// Processes `data` in a processing slot (already held when `reserved`), with the watermark when the options ask
    /// for one, recording each stage.
    func process(
        _ data: Data, options: ProcessingOptions, format: ImageFormat?, reserved: Bool
    ) async throws(ImageServerError) -> ProcessedImage {
        var watermark: WatermarkImage?
        if options.watermark.isEnabled, let watermarks {
            do { watermark = try await watermarks.image() } catch {
                if reserved { gate.unreserve() }
                throw error
            }
        }
        metrics.processingRuns.increment()
        let tracing = tracing
        let result = try await tracing.stage("processing") { _ throws(ImageServerError) in
            let result = try await gate.run(reserved: reserved) { [processor, watermark] () throws(ImageServerError) in
                try processor.process(data, options: options, format: format, watermark: watermark)
            }
            tracing.report(result.stages)
            return result
        }
        metrics.processed(result.timings)
        return result
    }

    /// The largest source file for `options`: its `max_src_file_size` when it has one, else the server's.
    func sourceSizeLimit(_ options: ProcessingOptions) -> Int? {
        guard options.security.maxSourceFileSize != nil else { return nil }
        return options.security.applied(to: configuration.limits).maxSourceFileSize
    }

    /// The result's format, as imgproxy decides it before processing: JPEG XL, then AVIF, then WebP, when the client
    /// accepts it and the server enforces it; else the URL's format; else the one `Accept` chooses: JPEG XL (with
    /// `autoJXL` or `enforcesJXL`), then AVIF (with `autoAVIF` or `enforcesAVIF`), then WebP (with `autoWebP` or
    /// `enforcesWebP`).
    private func resultFormat(_ options: ProcessingOptions, _ negotiation: Negotiation) -> ImageFormat? {
        if configuration.enforcesJXL && negotiation.acceptsJXL { return .jxl }
        if configuration.enforcesAVIF && negotiation.acceptsAVIF { return .avif }
        if configuration.enforcesWebP && negotiation.acceptsWebP { return .webp }
        if let format = options.format { return format }
        if (configuration.autoJXL || configuration.enforcesJXL) && negotiation.acceptsJXL { return .jxl }
        if (configuration.autoAVIF || configuration.enforcesAVIF) && negotiation.acceptsAVIF { return .avif }
        if (configuration.autoWebP || configuration.enforcesWebP) && negotiation.acceptsWebP { return .webp }
        return nil
    }

    /// The TTL, shortened so the response does not outlive `expires`.
    func maxAge(expires: Int?, now: Int) -> Int {
        guard let expires else { return configuration.ttl }
        return max(0, min(configuration.ttl, expires - now))
    }

    /// `inline; filename="stem.ext"` (or `attachment`), the stem from `filename`, else, as imgproxy takes it, what
    /// follows the source's last `/` (query included) up to its last `.`.
    func disposition(_ parsed: ImageURLRequest, format: ImageFormat?) -> String {
        var stem = parsed.options.filename
        if stem.isEmpty {
            let last = parsed.source.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
            stem = String(last.lastIndex(of: ".").map { last[..<$0] } ?? last)
        }
        // Quotes become %22, as imgproxy writes them; control characters could split the header and are dropped.
        stem = String(String.UnicodeScalarView(stem.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
            .replacingOccurrences(of: "\"", with: "%22")
        if stem.isEmpty { stem = "image" }
        let type = parsed.options.returnAttachment ? "attachment" : "inline"
        return "\(type); filename=\"\(stem)\(format.map { "." + $0.fileExtension } ?? "")\""
    }
}
