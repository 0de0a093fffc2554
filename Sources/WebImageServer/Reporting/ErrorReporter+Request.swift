import Hummingbird

extension ErrorReporter {
    /// `outcome`'s response, after reporting the error it answers, if any, for `request` to `path` (the image path
    /// after the mount point); with ``reportsIOErrors``, a response whose body cannot be written to the client is
    /// reported when that happens (imgproxy's `IMGPROXY_REPORT_IO_ERRORS`).
    func reported(_ outcome: RequestOutcome, request: Request, path: String) -> Response {
        let host = request.head.authority ?? ""
        var requestID = Self.requestID(request.headers[.requestID])
        if let failure = outcome.failure {
            // The ID the response will carry (``StandardHeadersMiddleware`` keeps it), so the report and the
            // client's answer name the same request.
            if requestID.isEmpty { requestID = RequestIDGenerator.next() }
            report(
                failure, method: request.method.rawValue, host: host, path: path, source: outcome.source,
                requestID: requestID)
            var response = outcome.response
            response.headers[.requestID] = requestID
            return response
        }
        guard reportsIOErrors else { return outcome.response }
        var response = outcome.response
        let body = response.body
        let (method, source, id) = (request.method.rawValue, outcome.source, requestID)
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            do {
                try await body.write(writer)
            } catch {
                self.report(
                    Self.writeFailure, method: method, host: host, path: path, source: source, requestID: id,
                    errorClass: "ResponseWriteError")
                throw error
            }
        }
        return response
    }

    /// imgproxy's `ResponseWriteError`, a 500 reported under its own class.
    static var writeFailure: ImageServerError { ImageServerError(status: 500, "failed to write response") }

    /// `given` when it is a valid request ID (`[A-Za-z0-9_-]`, at most 128 characters, as the response's
    /// `X-Request-ID` takes it), else empty.
    static func requestID(_ given: String?) -> String {
        guard let given, (1...128).contains(given.utf8.count), given.utf8.allSatisfy(Base64URL.alphabet.contains) else {
            return ""
        }
        return given
    }
}
