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
    let gate: ProcessingGate
    let configuration: ImageServerConfiguration

    func respond(path: String, request: Request) async -> Response {
        let negotiation = Negotiation(accept: request.headers[.accept]?.lowercased() ?? "")
        do {
            return try await answer(path: path, request: request, negotiation: negotiation)
        } catch {
            return ErrorResponse.make(error, json: negotiation.wantsJSON, vary: configuration.autoWebP)
        }
    }

    private func answer(
        path: String, request: Request, negotiation: Negotiation
    ) async throws(ImageServerError) -> Response {
        let now = Int(Date().timeIntervalSince1970)
        let parsed = try parser.parse(path, now: now)
        let url = try policy.url(for: parsed.source)
        let options = parsed.options
        let format = options.format ?? (configuration.autoWebP && negotiation.acceptsWebP ? .webp : nil)
        let id = ResultID(
            identity: [options.cacheIdentity, parsed.source, format?.name ?? "auto"].joined(separator: "|"),
            source: parsed.source)
        let etag = "\"" + id.digest.prefix(32) + "\""
        var headers = HTTPFields()
        headers[.eTag] = etag
        headers[.cacheControl] = "max-age=\(maxAge(options, now: now)), public"
        if configuration.autoWebP { headers[.vary] = "Accept" }

        if let ifNoneMatch = request.headers[.ifNoneMatch], Negotiation.matches(ifNoneMatch: ifNoneMatch, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        if let since = request.headers[.ifModifiedSince].flatMap(HTTPDate.date), request.headers[.ifNoneMatch] == nil,
            let hit = await store.cached(id),
            hit.created.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
        {
            headers[.lastModified] = HTTPDate.string(hit.created)
            return Response(status: .notModified, headers: headers)
        }

        let result = try await withDeadline(configuration.limits.requestTimeout) {
            () async throws(ImageServerError) -> StoredResult in
            try await store.result(for: id) { [fetcher, processor, gate] () async throws(ImageServerError) in
                let data = try await fetcher.fetch(url)
                return try await gate.run { () async throws(ImageServerError) in
                    try processor.process(data, options: options, format: format)
                }
            }
        }
        headers[.contentType] = result.format.mimeType
        headers[.lastModified] = HTTPDate.string(result.created)
        headers[.contentDisposition] = disposition(parsed, format: result.format)
        if request.method == .head { return Response(status: .ok, headers: headers) }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: result.data)))
    }

    /// The TTL, shortened so the response does not outlive `expires`.
    private func maxAge(_ options: ProcessingOptions, now: Int) -> Int {
        guard let expires = options.expires else { return configuration.ttl }
        return max(0, min(configuration.ttl, expires - now))
    }

    /// `inline; filename="stem.ext"` (or `attachment`), the stem from `filename` or the source's last path segment.
    private func disposition(_ parsed: ImageURLRequest, format: ImageFormat) -> String {
        var stem = parsed.options.filename
        if stem.isEmpty {
            let path = URL(string: parsed.source)?.path ?? ""
            let last = path.split(separator: "/").last.map(String.init) ?? ""
            stem = last.lastIndex(of: ".").map { String(last[..<$0]) } ?? last
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
