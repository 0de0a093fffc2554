import Foundation

/// Which load each target (and operation key) wants now: the bookkeeping behind ``ImageTarget``'s binding.
///
/// Isolated to the main actor, like the targets, so it needs no lock. An entry lives from the start of a load until
/// it ends (finished, failed, cancelled or replaced); entries of released targets are dropped when any load begins.
@MainActor
final class ImageTargetRegistry {
    /// The registry every target uses.
    static let shared = ImageTargetRegistry()

    /// One target's slot for one operation.
    struct Key: Hashable {
        let target: ObjectIdentifier
        let operation: String

        init(_ target: some ImageTarget, operation: String?) {
            self.target = ObjectIdentifier(target)
            self.operation = operation ?? "image"
        }
    }

    /// The load a slot wants.
    private struct Load {
        let generation: Int
        /// Weak, so that a load never keeps its target alive; also tells a released target from a new object
        /// that got the same address.
        weak var target: (any ImageTarget)?
        let url: URL?
        var task: ImageTask?
    }

    private var loads: [Key: Load] = [:]
    private var nextGeneration = 0

    /// Makes a new load the one `key` wants, cancelling the one it replaces.
    ///
    /// - Returns: the new load's generation, and whether a load of this same target was replaced while running.
    func begin(_ target: some ImageTarget, key: Key, url: URL?) -> (generation: Int, replaced: Bool) {
        dropReleasedTargets()
        var replaced = false
        if let old = loads.removeValue(forKey: key) {
            old.task?.cancel()
            replaced = old.target === target
        }
        nextGeneration += 1
        loads[key] = Load(generation: nextGeneration, target: target, url: url)
        return (nextGeneration, replaced)
    }

    /// Records the task of load `generation`; cancels it if that load is no longer wanted.
    func attach(_ task: ImageTask, key: Key, generation: Int) {
        if loads[key]?.generation == generation {
            loads[key]?.task = task
        } else {
            task.cancel()
        }
    }

    /// Whether `key` still wants load `generation`.
    func isCurrent(_ key: Key, generation: Int) -> Bool { loads[key]?.generation == generation }

    /// Ends load `generation`. Returns `true` when it was still wanted (its result may be applied), `false` when it
    /// was replaced or cancelled (its result must be dropped).
    @discardableResult
    func end(_ key: Key, generation: Int) -> Bool {
        guard loads[key]?.generation == generation else { return false }
        loads[key] = nil
        return true
    }

    /// Cancels and forgets whatever load `key` wants. Returns whether one was running.
    func cancel(_ key: Key) -> Bool {
        guard let load = loads.removeValue(forKey: key) else { return false }
        load.task?.cancel()
        return true
    }

    /// The URL of the load `key` wants now, if one is running.
    func url(for key: Key) -> URL? { loads[key]?.url }

    /// The number of loads running for all targets.
    var count: Int { loads.count }

    /// Whether any load is registered for the object `id` (alive or not).
    func hasLoads(for id: ObjectIdentifier) -> Bool { loads.keys.contains { $0.target == id } }

    /// Cancels and forgets the loads of targets that were released.
    private func dropReleasedTargets() {
        for (key, load) in loads where load.target == nil {
            load.task?.cancel()
            loads[key] = nil
        }
    }
}
