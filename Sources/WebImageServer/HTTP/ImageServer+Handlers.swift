import Hummingbird

extension ImageServer {
    /// The image route's handler: ``timed(_:)`` around the image responder.
    func imageHandler<Context: RequestContext>() -> @Sendable (Request, Context) async throws -> Response {
        let responder = responder
        return timed { path, request in await responder.respond(path: path, request: request) }
    }

    /// An image or info request's handler: `respond` timed, counted in progress, logged and, when it failed as
    /// imgproxy reports failures, reported (``ErrorReporter``).
    func timed<Context: RequestContext>(
        _ respond: @escaping @Sendable (String, Request) async -> RequestOutcome
    ) -> @Sendable (Request, Context) async throws -> Response {
        let (metrics, reporter) = (responder.metrics, reporter)
        let log = RequestLog(logger: configuration.logger, sink: configuration.requestLog)
        return { request, context in
            let start = ContinuousClock.now
            metrics.started()
            let path = Self.imagePath(request, context: context)
            let outcome = await respond(path, request)
            let seconds = start.secondsUntilNow
            metrics.finished(seconds: seconds)
            log.record(outcome, method: request.method, seconds: seconds)
            guard let reporter else { return outcome.response }
            return reporter.reported(outcome, request: request, path: path)
        }
    }
}
