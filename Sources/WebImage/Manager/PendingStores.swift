/// Disk writes the manager started without making its caller wait, so they can be awaited before exit.
final class PendingStores: Sendable {
    private struct State {
        var tasks: [Int: Task<Void, Never>] = [:]
        var nextID = 0
    }

    private let state = Locked(State())

    /// Starts `write` in the background.
    func add(_ write: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.tasks[id] = Task { [weak self] in
                await write()
                self?.state.withLock { _ = $0.tasks.removeValue(forKey: id) }
            }
        }
    }

    /// Returns once every write started before (and while) waiting has finished.
    func waitAll() async {
        while let tasks = state.withLock({ $0.tasks.isEmpty ? nil : Array($0.tasks.values) }) {
            for task in tasks { await task.value }
        }
    }
}
