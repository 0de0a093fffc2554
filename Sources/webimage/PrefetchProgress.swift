import Foundation
import WebImage

/// The progress of `webimage prefetch`: a redrawn bar on a terminal, one line per source otherwise, and a summary.
/// Written to standard error; the summary to standard output.
final class PrefetchProgress: Sendable {
    private struct State {
        var downloaded = 0
        var cached = 0
        var failed = 0
        var bytes = 0
        var interrupted = false
        var lastDraw = ContinuousClock.now - .seconds(1)
    }

    let total: Int
    let terminal: Bool
    private let start = ContinuousClock.now
    private let state = Locked(State())

    init(total: Int, terminal: Bool) {
        self.total = total
        self.terminal = terminal
    }

    var wasInterrupted: Bool { state.withLock { $0.interrupted } }

    func finished(_ source: String, bytes: Int, cacheType: ImageCacheType) {
        let line = state.withLock { state -> String in
            if cacheType == .none {
                state.downloaded += 1
                state.bytes += bytes
            } else {
                state.cached += 1
            }
            return terminal
                ? redraw(&state, force: false) ?? ""
                : "[\(done(state))/\(total)] \(cacheType == .none ? "loaded" : "cached") \(ByteText.format(bytes)) \(source)\n"
        }
        write(line)
    }

    func failed(_ source: String, error: WebImageError) {
        let line = state.withLock { state -> String in
            state.failed += 1
            let message = "[\(done(state))/\(total)] failed \(source): \(error)\n"
            return terminal ? "\r\u{1B}[K" + message + (redraw(&state, force: true) ?? "") : message
        }
        write(line)
    }

    func interrupted() {
        state.withLock { $0.interrupted = true }
        write(terminal ? "\r\u{1B}[K" + "interrupted, cancelling…\n" : "interrupted, cancelling…\n")
    }

    /// Draws the final bar and prints the summary.
    func finish() {
        let (lastBar, text) = state.withLock { state in
            (terminal ? (redraw(&state, force: true) ?? "") + "\n" : "", summary(state))
        }
        write(lastBar)
        print(text)
    }

    private func done(_ state: State) -> Int { state.downloaded + state.cached + state.failed }

    private var elapsed: Double { (ContinuousClock.now - start).inSeconds }

    /// The bar, at most ten times a second unless `force`.
    private func redraw(_ state: inout State, force: Bool) -> String? {
        let now = ContinuousClock.now
        guard force || now - state.lastDraw >= .milliseconds(100) || done(state) == total else { return nil }
        state.lastDraw = now
        return bar(state)
    }

    private func bar(_ state: State) -> String {
        let count = done(state)
        let fraction = total == 0 ? 1 : Double(count) / Double(total)
        let width = 24
        let filled = Int((fraction * Double(width)).rounded(.down))
        let seconds = max(elapsed, 0.001)
        let rate = Double(state.bytes) / seconds
        let eta = count == 0 ? Double.infinity : seconds / Double(count) * Double(total - count)
        return "\r\u{1B}[K[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            + "] \(count)/\(total)  \(ByteText.format(state.bytes))  \(ByteText.format(rate))/s  ETA \(ByteText.duration(eta))"
    }

    private func summary(_ state: State) -> String {
        let seconds = max(elapsed, 0.001)
        let head = state.interrupted ? "interrupted after" : "prefetched"
        return "\(head) \(done(state)) of \(total): \(state.downloaded) downloaded, \(state.cached) already cached, "
            + "\(state.failed) failed; \(ByteText.format(state.bytes)) in \(String(format: "%.2f", seconds)) s "
            + "(\(ByteText.format(Double(state.bytes) / seconds))/s)"
    }

    private func write(_ text: String) {
        guard !text.isEmpty else { return }
        FileHandle.standardError.write(Data(text.utf8))
    }
}
