import WebImage

/// One request of this process as New Relic's agent reports it, a transaction, shared by the spans under it: its
/// id, the attributes its segments give it (imgproxy sets the source URL on the transaction) and the error the
/// request was answered with (imgproxy's `NoticeError`), which becomes one `TransactionError` event when it ends.
final class NewRelicTransaction: Sendable {
    /// The transaction's id (`guid`, `transactionId`): 16 hex digits.
    let id: String
    private let state = Locked(State())

    /// What the transaction's segments tell it.
    struct State {
        var attributes: [String: NewRelicValue] = [:]
        var error: FinishedSpan.Failure?
    }

    init(id: String) { self.id = id }

    /// Adds what a finished segment tells the transaction: its source URL and origin, and its error when it is the
    /// server's answer (a library's error inside a stage is not; the outermost answer, ending last, wins) and not a
    /// request that went away.
    func add(_ span: FinishedSpan) {
        let source = span.source
        state.withLock { state in
            if let source {
                state.attributes["imgproxy.source_image_url"] = .string(source.url)
                if let origin = source.origin { state.attributes["imgproxy.source_image_origin"] = .string(origin) }
            }
            if let error = span.error, error.isAnswer, !error.isCancellation { state.error = error }
        }
    }

    /// What the segments told so far.
    var snapshot: State { state.withLock { $0 } }
}
