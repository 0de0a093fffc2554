import Hummingbird

extension ImageServer {
    /// The image route's handler: ``timed(_:)`` around the image responder.
    func imageHandler<Context: RequestContext>() -> @Sendable (Request, Context) async throws -> Response {
        let responder = responder
        return timed { path, request in await responder.respond(path: path, request: request) }
    }

    /// An image or info request's handler: `respond` timed, counted in progress and logged.
    func timed<Context: RequestContext>(
        _ respond: @escaping @Sendable (String, Request) async -> RequestOutcome
    ) -> @Sendable (Request, Context) async throws -> Response {
        let (metrics, log) = (
            responder.metrics, RequestLog(logger: configuration.logger, sink: configuration.requestLog)
        )
        return { request, context in
            let start = ContinuousClock.now
            metrics.started()
            let outcome = await respond(Self.imagePath(request, context: context), request)
            let seconds = start.secondsUntilNow
            metrics.finished(seconds: seconds)
            log.record(outcome, method: request.method, seconds: seconds)
            return outcome.response
        }
    }
}
