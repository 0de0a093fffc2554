import Foundation

/// Throttles progressive decoding: at most one preview decode at a time and one per
/// ``ImageManager/Configuration/previewInterval``, each on the manager's ``WorkQueue``.
final class ProgressivePreviews: Sendable {
    private struct State {
        var busy = false
        var last: ContinuousClock.Instant?
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
        let go = state.withLock { state -> Bool in
            if state.busy { return false }
            if let last = state.last, now - last < interval { return false }
            state.busy = true
            state.last = now
            return true
        }
        guard go else { return }
        let pipeline = pipeline
        Task { [self] in
            // Pixel work: on the manager's bounded work queue, like every decode.
            try? await pipeline.manager.workQueue.run { pipeline.preview(data) }
            state.withLock { $0.busy = false }
        }
    }
}
