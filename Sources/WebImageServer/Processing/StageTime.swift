/// When one stage of a processing run (the decode, a step of ``ProcessingPipeline``, the encode) started and ended:
/// recorded on the processing thread, reported as a span once the run is back in the request's task.
struct StageTime: Sendable {
    /// The stage's name, as its span is named: `decode`, `trim`, `rotate and flip`..., `encode`.
    var name: String
    var start: ContinuousClock.Instant
    var end: ContinuousClock.Instant
}

extension ProcessingStep {
    /// The step's name in spans: its type's name without `Step`, in lower-case words (`CropToResultStep` is
    /// `crop to result`).
    var name: String {
        var words = ""
        for character in String(describing: type(of: self)).dropLast("Step".count) {
            if character.isUppercase && !words.isEmpty { words.append(" ") }
            words.append(Character(character.lowercased()))
        }
        return words
    }
}
