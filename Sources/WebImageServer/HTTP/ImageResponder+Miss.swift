import Foundation
import Hummingbird
import WebImage

extension ImageResponder {
    /// How a request for a result in none of this node's tiers ends.
    enum MissAnswer: Sendable {
        /// The origin said the source did not change since the client's validators: its validators, for the 304.
        case notModified(ImageValidators)
        /// The result, from the shared tier, a run in flight or made now.
        case result(StoredResult, CacheOutcome)
    }

    /// A result in none of this node's tiers, as imgproxy answers it: when the client sent validators that imgproxy
    /// would pass on (``ResponseValidators/originConditions(ifNoneMatch:ifModifiedSince:)``) and no tier has the
    /// result, the origin is asked with them; its 304 is the answer, its 200 is processed (the bytes are not fetched
    /// again). Without such validators, the result is taken or made as any miss.
    func answerMiss(
        key: ResultKey, url: URL, options: ProcessingOptions, format: FormatRequest, request: Request
    ) async throws(ImageServerError) -> MissAnswer {
        let conditions = validators.originConditions(
            ifNoneMatch: request.headers[.ifNoneMatch], ifModifiedSince: request.headers[.ifModifiedSince])
        guard conditions.etag != nil || conditions.lastModified != nil else {
            let (result, source) = try await store.result(for: key) { () async throws(ImageServerError) in
                try await make(url: url, options: options, format: format)
            }
            return .result(result, source)
        }
        if let (result, source) = await store.cached(key) { return .result(result, source) }
        let fetched = try await tracing.stage("source fetch") { span throws(ImageServerError) in
            span?.attributes["server.address"] = url.host
            span?.attributes["imgproxy.source_image_url"] = url.absoluteString
            return try await fetcher.fetch(url, conditions: conditions, maxSize: sourceSizeLimit(options))
        }
        switch fetched {
        case .notModified(let origin):
            return .notModified(origin)
        case .fetched(let source):
            let (result, tier) = try await store.result(for: key) { () async throws(ImageServerError) in
                try await make(url: url, options: options, format: format, prefetched: source)
            }
            return .result(result, tier)
        }
    }
}

extension ImageResponder.Outcome {
    /// A 304 with `headers` (`Cache-Control`, `Vary`) and the result's `etag` and `lastModified`, as imgproxy answers
    /// one: no type, no length, no body.
    mutating func notModified(headers: HTTPFields, etag: String?, lastModified: String?) {
        var headers = headers
        headers[.eTag] = etag
        headers[.lastModified] = lastModified
        cache = .notModified
        response = Response(status: .notModified, headers: headers)
    }
}
