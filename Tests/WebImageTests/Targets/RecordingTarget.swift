import Foundation
import WebImage

/// A target that records every call it receives, in order.
@MainActor
final class RecordingTarget: ImageTarget {
    enum Call {
        case set(Image?)
        case start
        case progress(ImageProgress)
        case finish
    }

    private(set) var calls: [Call] = []

    func setImage(_ image: Image?) { calls.append(.set(image)) }
    func imageLoadDidStart() { calls.append(.start) }
    func imageLoadProgress(_ progress: ImageProgress) { calls.append(.progress(progress)) }
    func imageLoadDidFinish() { calls.append(.finish) }

    /// The calls by kind, with runs of progress calls collapsed into one "progress".
    var kinds: [String] {
        var kinds: [String] = []
        for call in calls {
            let kind: String
            switch call {
            case .set(let image): kind = image == nil ? "set(nil)" : "set"
            case .start: kind = "start"
            case .progress: kind = "progress"
            case .finish: kind = "finish"
            }
            if kind == "progress" && kinds.last == "progress" { continue }
            kinds.append(kind)
        }
        return kinds
    }

    /// The images passed to ``setImage(_:)``, in order.
    var images: [Image?] {
        calls.compactMap { if case .set(let image) = $0 { image } else { nil } }
    }

    /// The progress values received, in order.
    var progress: [ImageProgress] {
        calls.compactMap { if case .progress(let value) = $0 { value } else { nil } }
    }

    func forget() { calls = [] }
}

/// Completions of `setImage(with:)` calls by name: how often each was called and with what.
@MainActor
final class CompletionLog {
    private(set) var results: [String: [Result<ImageResult, WebImageError>]] = [:]
    private var waiters: [String: [CheckedContinuation<Void, Never>]] = [:]

    /// A completion handler that records under `name`.
    func handler(_ name: String) -> @MainActor @Sendable (Result<ImageResult, WebImageError>) -> Void {
        { [self] result in
            results[name, default: []].append(result)
            for waiter in waiters.removeValue(forKey: name) ?? [] { waiter.resume() }
        }
    }

    /// The first result for `name`, once there is one.
    func result(_ name: String) async -> Result<ImageResult, WebImageError> {
        if results[name] == nil {
            await withCheckedContinuation { waiters[name, default: []].append($0) }
        }
        return results[name]![0]
    }

    /// How many times `name`'s completion ran.
    func count(_ name: String) -> Int { results[name]?.count ?? 0 }
}
