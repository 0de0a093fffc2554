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
    let gate: ProcessingGate
    let metrics: ServerMetrics
    /// Sends a request to the node that owns its result (`--peer-forward`); `nil` answers every request here.
    let forwarder: PeerForwarder?
    /// The `Authorization` image requests must carry (`--secret`); `nil` asks for none.
    let secret: RequestSecret?
    let configuration: ImageServerConfiguration

    /// A response and what the request log and the metrics say about it.
    struct Outcome: Sendable {
        var response: Response
        /// How it was answered.
        var cache = CacheOutcome.none
        /// The source's host (or `local`), never the full URL.
        var sourceHost = ""
        /// Response body bytes.
        var bytes = 0
    }

    func respond(path: String, request: Request) async -> Outcome {
        let negotiation = Negotiation(accept: request.headers[.accept]?.lowercased() ?? "")
        var outcome = Outcome(response: Response(status: .ok))
        do {
            try await answer(path: path, request: request, negotiation: negotiation, into: &outcome)
        } catch {
            if let failure = error.originFailure { metrics.originError(kind: failure) }
            outcome.response = ErrorResponse.make(error, json: negotiation.wantsJSON, vary: negotiates)
        }
        metrics.bytesOut.increment(by: outcome.bytes)
        metrics.request(status: outcome.response.status.code, cache: outcome.cache)
        return outcome
    }

    /// Whether responses depend on `Accept` (`Vary: Accept`).
    private var negotiates: Bool {
        configuration.autoWebP || configuration.autoAVIF || configuration.autoJXL || configuration.enforceJXL
    }

    private func answer(
        path: String, request: Request, negotiation: Negotiation, into outcome: inout Outcome
    ) async throws(ImageServerError) {
        try secret?.check(request.headers[.authorization])
        let now = Int(Date().timeIntervalSince1970)
        let parsed = try parser.parse(path, now: now)
        let url = try policy.url(for: parsed.source)
        outcome.sourceHost = url.isFileURL ? "local" : url.host ?? ""
        let options = parsed.options
        let format = enforcedFormat(negotiation) ?? options.format ?? negotiatedFormat(negotiation)
        let key = ResultKey(options: options, source: parsed.source, format: format)
        let etag = key.etag
        var headers = HTTPFields()
        headers[.eTag] = etag
        headers[.cacheControl] = "max-age=\(maxAge(options, now: now)), public"
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

        // A memory hit answers at once, without the deadline's timer task.
        let result: StoredResult
        let source: CacheOutcome
        if let hit = store.memory.result(forKey: key) {
            (result, source) = (hit, .memory)
        } else if let forwarder, let owner = forwarder.owner(of: parsed, request: request),
            let answer = await forwarder.forward(
                to: owner, request: request, timeout: configuration.limits.requestTimeout)
        {
            metrics.peerForwards.increment()
            outcome.cache = .forwarded
            outcome.bytes = request.method == .head ? 0 : answer.headers[.contentLength].flatMap { Int($0) } ?? 0
            outcome.response = answer
            return
        } else {
            (result, source) = try await withDeadline(configuration.limits.requestTimeout) {
                () async throws(ImageServerError) -> (StoredResult, CacheOutcome) in
                try await store.result(for: key) { () async throws(ImageServerError) in
                    try await make(url: url, options: options, format: format)
                }
            }
        }
        outcome.cache = source
        headers[.contentType] = result.format.mimeType
        headers[.lastModified] = result.lastModifiedHeader
        headers[.contentDisposition] = disposition(parsed, format: result.format)
        headers[.contentLength] = String(result.data.count)
        if request.method == .head {
            outcome.response = Response(status: .ok, headers: headers)
            return
        }
        outcome.bytes = result.data.count
        outcome.response = Response(
            status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: result.data)))
    }

    /// Fetches the source (and the watermark, when the options ask for it) and processes it in a processing slot,
    /// recording each stage.
    private func make(
        url: URL, options: ProcessingOptions, format: ImageFormat?
    ) async throws(ImageServerError) -> ProcessedImage {
        try gate.reserve()
        let source: SourceFetcher.Source
        var watermark: WatermarkImage?
        do {
            source = try await fetcher.fetch(url)
            if options.watermark.isEnabled, let watermarks { watermark = try await watermarks.image() }
        } catch {
            gate.unreserve()
            throw error
        }
        metrics.processingRuns.increment()
        var result = try await gate.run(reserved: true) { [processor, watermark] () throws(ImageServerError) in
            try processor.process(source.data, options: options, format: format, watermark: watermark)
        }
        metrics.decode.record(seconds: result.timings.decode)
        metrics.transform.record(seconds: result.timings.transform)
        metrics.encode.record(seconds: result.timings.encode)
        result.sourceLastModified = source.lastModified
        return result
    }

    /// The format `Accept` imposes even over the URL's, as imgproxy's `IMGPROXY_ENFORCE_JXL`: JPEG XL.
    private func enforcedFormat(_ negotiation: Negotiation) -> ImageFormat? {
        configuration.enforceJXL && negotiation.acceptsJXL ? .jxl : nil
    }

    /// The format `Accept` chooses when the URL names none, in imgproxy's order: JPEG XL (with `autoJXL` or
    /// `enforceJXL`), AVIF (with `autoAVIF`), then WebP (with `autoWebP`).
    private func negotiatedFormat(_ negotiation: Negotiation) -> ImageFormat? {
        if (configuration.autoJXL || configuration.enforceJXL) && negotiation.acceptsJXL { return .jxl }
        if configuration.autoAVIF && negotiation.acceptsAVIF { return .avif }
        if configuration.autoWebP && negotiation.acceptsWebP { return .webp }
        return nil
    }

    /// The TTL, shortened so the response does not outlive `expires`.
    private func maxAge(_ options: ProcessingOptions, now: Int) -> Int {
        guard let expires = options.expires else { return configuration.ttl }
        return max(0, min(configuration.ttl, expires - now))
    }

    /// `inline; filename="stem.ext"` (or `attachment`), the stem from `filename`, else, as imgproxy takes it, what
    /// follows the source's last `/` (query included) up to its last `.`.
    private func disposition(_ parsed: ImageURLRequest, format: ImageFormat) -> String {
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
        return "\(type); filename=\"\(stem).\(format.fileExtension)\""
    }

    /// Runs `work`, or answers 503 once `limit` has passed (the shared work goes on for other callers).
    private func withDeadline<T: Sendable>(
        _ limit: Duration, _ work: @escaping @Sendable () async throws(ImageServerError) -> T
    ) async throws(ImageServerError) -> T {
        let outcome = await withTaskGroup(of: Result<T, ImageServerError>?.self) { group in
            group.addTask {
                do throws(ImageServerError) { return .success(try await work()) } catch { return .failure(error) }
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return Task.isCancelled ? nil : .failure(ImageServerError(status: 503, "request timed out"))
            }
            var first: Result<T, ImageServerError>?
            while first == nil, let next = await group.next() { first = next }
            group.cancelAll()
            return first ?? .failure(ImageServerError(status: 503, "request timed out"))
        }
        return try outcome.get()
    }
}
