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
    /// imgproxy's `ETag` and `Last-Modified`, and how conditional requests are answered.
    let validators: ResponseValidators
    let configuration: ImageServerConfiguration

    /// A response and what the request log and the metrics say about it.
    typealias Outcome = RequestOutcome

    func respond(path: String, request: Request) async -> Outcome {
        let now = Int(Date().timeIntervalSince1970)
        let memo = AnsweredPaths.Key(path: path, accepts: acceptedFormats(request), hints: clientHints(request))
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
                outcome.failure = error
                outcome.response = ErrorResponse.make(error, json: negotiation.wantsJSON)
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
            let parsed = try parser.parse(memo.path, now: now, hints: memo.hints)
            return (parsed, try policy.url(for: parsed.source))
        }
        outcome.sourceHost = url.isFileURL ? "local" : url.host ?? ""
        outcome.source = url
        let options = parsed.options
        var headers = HTTPFields()
        headers[.cacheControl] = cacheControl(expires: options.expires, origin: ImageValidators(), now: now)
        if options.raw {
            try await answerRaw(url: url, parsed: parsed, request: request, headers: headers, into: &outcome)
            return
        }
        let format = FormatRequest(options: options, negotiation: negotiation, configuration: configuration)
        if let cookies = passedCookies(request, source: url) {
            if let vary { headers[.vary] = vary }
            try await answerWithCookies(
                cookies, url: url, parsed: parsed, format: format, request: request, headers: headers, now: now,
                into: &outcome)
            return
        }
        let key = ResultKey(options: options, source: parsed.source, format: format)
        if let vary { headers[.vary] = vary }

        // A hit in this node's tiers answers at once, without the deadline's timer task (with peers, only a memory
        // hit: the disk is left to the owner of the result); a conditional request for it is answered from the
        // validators kept with it, without the origin. A miss asks the origin with the client's validators
        // (``answerMiss(key:url:options:format:request:)``).
        let result: StoredResult
        let source: CacheOutcome
        if let hit = await tracedLocalHit(key) {
            (result, source) = hit
        } else if let forwarder, let owner = forwarder.owner(of: parsed, request: request),
            let answer = await forward(to: owner, through: forwarder, request: request)
        {
            metrics.peerForwards.increment()
            outcome.cache = .forwarded
            outcome.bytes = answer.headers[.contentLength].flatMap { Int($0) } ?? 0
            outcome.response = answer
            return
        } else {
            do {
                let miss = try await withDeadline(configuration.limits.requestTimeout) {
                    () async throws(ImageServerError) -> MissAnswer in
                    try await answerMiss(key: key, url: url, options: options, format: format, request: request)
                }
                switch miss {
                case .notModified(let origin):
                    if cacheControlFollowsOrigin {
                        headers[.cacheControl] = cacheControl(expires: options.expires, origin: origin, now: now)
                    }
                    outcome.notModified(
                        headers: headers, etag: validators.etag(origin: origin.etag),
                        lastModified: validators.lastModified(origin: origin.lastModified))
                    return
                case .result(let made, let tier): (result, source) = (made, tier)
                }
            } catch {
                guard error.isSourceFailure, let fallback else { throw error }
                var headers = headers
                headers[Self.linkHeader] = canonicalLink(parsed.source)
                try await answerFallback(
                    fallback, failure: error, parsed: parsed, format: format, request: request, headers: headers,
                    now: now, into: &outcome)
                return
            }
        }
        let disposition = disposition(parsed, format: result.format)
        let link = canonicalLink(parsed.source)
        if cacheControlFollowsOrigin {
            headers[.cacheControl] = cacheControl(expires: options.expires, origin: result.origin, now: now)
        }
        answered.remember(
            AnsweredPaths.Answer(
                key: key, format: result.format, expires: options.expires,
                cacheControl: options.expires == nil && !cacheControlFollowsOrigin ? headers[.cacheControl] : nil,
                disposition: disposition,
                sourceHost: outcome.sourceHost, canonicalLink: link),
            for: memo)
        if source != .miss,
            validators.isNotModified(
                ifNoneMatch: request.headers[.ifNoneMatch], ifModifiedSince: request.headers[.ifModifiedSince],
                etag: result.etag, lastModified: result.lastModified)
        {
            outcome.notModified(headers: headers, etag: result.etag, lastModified: result.lastModified)
            return
        }
        outcome.cache = source
        headers[Self.linkHeader] = link
        outcome.respond(with: result, headers: headers, disposition: disposition)
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

    /// Fetches the source (unless it is `prefetched`) and the watermark, when the options ask for it, and processes
    /// them in a processing slot, recording each stage.
    func make(
        url: URL, options: ProcessingOptions, format: FormatRequest, prefetched: SourceFetcher.Source? = nil
    ) async throws(ImageServerError) -> ProcessedImage {
        try gate.reserve()
        let source: SourceFetcher.Source
        if let prefetched {
            source = prefetched
        } else {
            do {
                source = try await tracing.stage("source fetch") { span throws(ImageServerError) in
                    span?.attributes["server.address"] = url.host
                    span?.attributes["imgproxy.source_image_url"] = url.absoluteString
                    return try await fetcher.fetch(url, maxSize: sourceSizeLimit(options))
                }
            } catch {
                gate.unreserve()
                throw error
            }
        }
        var result = try await process(source.data, options: options, format: format, reserved: true)
        result.source = source.validators
        return result
    }

    /// Processes `data` in a processing slot (already held when `reserved`), with the watermark when the options ask
    /// for one, recording each stage.
    func process(
        _ data: Data, options: ProcessingOptions, format: FormatRequest, reserved: Bool
    ) async throws(ImageServerError) -> ProcessedImage {
        var watermark: WatermarkImage?
        if options.watermark.isEnabled, let watermarks {
            do { watermark = try await watermarks.image() } catch {
                if reserved { gate.unreserve() }
                throw error
            }
        }
        metrics.processingRuns.increment()
        let waiting = ContinuousClock.now
        let admitted: ContinuousClock.Instant
        let outcome: Result<ProcessedImage, ImageServerError>
        do {
            (admitted, outcome) = try await gate.run(reserved: reserved) { [processor, watermark] in
                let admitted = ContinuousClock.now
                return (
                    admitted,
                    Result { () throws(ImageServerError) in
                        try processor.process(data, options: options, request: format, watermark: watermark)
                    }
                )
            }
        } catch {
            tracing.reportRun(waiting: waiting, admitted: nil, end: .now, stages: nil, error: error)
            throw error
        }
        switch outcome {
        case .success(let processed):
            tracing.reportRun(waiting: waiting, admitted: admitted, end: .now, stages: processed.stages, error: nil)
            metrics.processed(processed.timings)
            return processed
        case .failure(let error):
            tracing.reportRun(waiting: waiting, admitted: admitted, end: .now, stages: nil, error: error)
            throw error
        }
    }

    /// The largest source file for `options`: its `max_src_file_size` when it has one, else the server's.
    func sourceSizeLimit(_ options: ProcessingOptions) -> Int? {
        guard options.security.maxSourceFileSize != nil else { return nil }
        return options.security.applied(to: configuration.limits).maxSourceFileSize
    }

    /// The TTL, shortened so the response does not outlive `expires`.
    func maxAge(expires: Int?, now: Int) -> Int {
        guard let expires else { return configuration.ttl }
        return max(0, min(configuration.ttl, expires - now))
    }

    /// The `Link` header.
    static let linkHeader = HTTPFields.Element.Name("Link")!

    /// `<SOURCE>; rel="canonical"` for an `http(s)` source with ``HTTPConfiguration/setsCanonicalHeader`` (imgproxy's
    /// `SetCanonical`), without control characters; else `nil`.
    func canonicalLink(_ source: String) -> String? {
        guard configuration.http.setsCanonicalHeader, source.hasPrefix("https://") || source.hasPrefix("http://") else {
            return nil
        }
        let clean = String(
            String.UnicodeScalarView(source.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
        return "<\(clean)>; rel=\"canonical\""
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
