import Foundation

/// Throttles progressive decoding: at most one preview decode at a time and one per
/// ``ImageManager/Configuration/previewInterval``, each on the manager's ``WorkQueue``.
final class ProgressivePreviews: Sendable {
    private struct State {
        var busy = false
        var last: ContinuousClock.Instant?
        /// The preview decode in flight (waiting for a work-queue slot or running).
        var task: Task<Void, Never>?
        var finished = false
    }

    private let pipeline: ImagePipeline
    private let interval: Duration
    private let state = Locked(State())

    init(pipeline: ImagePipeline) {
        self.pipeline = pipeline
        interval = pipeline.manager.configuration.previewInterval
    }

    /// Called with all the bytes so far; decodes a preview off the caller unless one ran too recently.
    func receive(_ data: Data) {
        let now = ContinuousClock.now
        let pipeline = pipeline
        state.withLock { state in
            if state.busy || state.finished { return }
            if let last = state.last, now - last < interval { return }
            state.busy = true
            state.last = now
            state.task = Task { [self] in
                // Pixel work: on the manager's bounded work queue, like every decode.
                try? await pipeline.manager.workQueue.run { pipeline.preview(data) }
                self.state.withLock { $0.busy = false }
            }
        }
    }

    /// The download is over: no more previews, and one still waiting for a work-queue slot is cancelled.
    func finish() {
        state.withLock { state in
            state.finished = true
            state.task?.cancel()
        }
    }
}
