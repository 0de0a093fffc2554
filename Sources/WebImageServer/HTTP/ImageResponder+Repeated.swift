import Hummingbird

extension ImageResponder {
    /// A repeated request for a result in this node's tiers (``localHit(_:)``), answered from what the path's first
    /// answer kept (``AnsweredPaths``): the secret, the time and the validators are checked as on the first (the
    /// validators against those kept with the result: a 304 is a tier lookup and a comparison of texts); the parse,
    /// the signature and the key's digest are not done again. `nil` when the request must be answered from the
    /// start: an unknown path, a result in neither tier, an `expires` that has passed, a wrong secret (refused
    /// there).
    func answerRepeated(_ memo: AnsweredPaths.Key, request: Request, now: Int) async -> Outcome? {
        if let secret {
            guard (try? secret.check(request.headers[.authorization])) != nil else { return nil }
        }
        guard let known = answered.answer(for: memo) else { return nil }
        if let expires = known.expires, expires <= now { return nil }
        guard let (result, tier) = await tracedLocalHit(known.key), result.format == known.format else { return nil }
        var headers = HTTPFields()
        headers[.cacheControl] =
            known.cacheControl ?? cacheControl(expires: known.expires, origin: result.origin, now: now)
        if let vary { headers[.vary] = vary }
        var outcome = Outcome(response: Response(status: .ok), sourceHost: known.sourceHost)
        let (ifNoneMatch, ifModifiedSince) = (request.headers[.ifNoneMatch], request.headers[.ifModifiedSince])
        if ifNoneMatch != nil || ifModifiedSince != nil,
            validators.isNotModified(
                ifNoneMatch: ifNoneMatch, ifModifiedSince: ifModifiedSince, etag: result.etag,
                lastModified: result.lastModified)
        {
            outcome.notModified(headers: headers, etag: result.etag, lastModified: result.lastModified)
            return outcome
        }
        outcome.cache = tier
        headers[Self.linkHeader] = known.canonicalLink
        outcome.respond(with: result, headers: headers, disposition: known.disposition)
        return outcome
    }

    /// Which of the formats `Accept` may offer it lists, as bits (JPEG XL, AVIF, WebP), when the server negotiates;
    /// zero otherwise, without reading the header.
    func acceptedFormats(_ request: Request) -> UInt8 {
        guard negotiates, let accept = request.headers[.accept] else { return 0 }
        let negotiation = Negotiation(accept: accept.lowercased())
        return (negotiation.acceptsJXL ? 4 : 0) | (negotiation.acceptsAVIF ? 2 : 0) | (negotiation.acceptsWebP ? 1 : 0)
    }
}

extension ImageResponder.Outcome {
    /// Answers `result` with `headers` and its type, validators, disposition and length: the body shared with the
    /// memory tier, never copied.
    mutating func respond(with result: StoredResult, headers: HTTPFields, disposition: String) {
        var headers = headers
        headers[.contentType] = result.format.mimeType
        headers[.eTag] = result.etag
        headers[.lastModified] = result.lastModified
        headers[.contentDisposition] = disposition
        headers[.contentLength] = result.contentLength
        result.debug?.apply(to: &headers)
        bytes = result.count
        response = Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: result.body))
    }
}
