import WebImage

/// What the first answer of an image path learned, kept so that a repeated request for a result in the memory tier
/// skips the parse, the signature check and the key's digest (issue 29): the hit path's costliest steps, and the
/// same for every request of one path.
///
/// Only a path whose signature verified, whose options parsed and whose source the policy accepted, and that was
/// answered with a result, is kept. The server's keys, presets and rules do not change while it runs, so such a path
/// verifies and parses the same way again; an option that depends on the time (`expires`) is checked on every use.
/// A request that would take any other road (a result no longer in this node's tiers, or made again in another
/// format) leaves this shortcut and is answered from the start. Least recently used paths go first, bounded by count and
/// by bytes.
final class AnsweredPaths: Sendable {
    /// A path as it arrived, and which of the formats `Accept` offers can change the result's format.
    struct Key: Hashable, Sendable {
        let path: String
        /// ``ImageResponder/acceptedFormats(_:)``: zero on a server that does not negotiate.
        let accepts: UInt8
        /// ``ImageResponder/clientHints(_:)``: ``ClientHints/none`` on a server without client hints.
        let hints: ClientHints

        func hash(into hasher: inout Hasher) {
            hasher.combine(path)
            hasher.combine(accepts)
            // Hints are hashed only when there are some: a server without them hashes what it always did.
            if hints != .none { hasher.combine(hints) }
        }
    }

    /// What a repeated request needs.
    struct Answer: Sendable {
        /// The result's typed key.
        let key: ResultKey
        /// The result's format when it was answered: a result made again in another format is answered from the
        /// start.
        let format: ImageFormat
        /// The `expires` option: past it, the path is answered from the start (and refused).
        let expires: Int?
        /// `Cache-Control` when it does not depend on the time (no `expires`).
        let cacheControl: String?
        /// `Content-Disposition`.
        let disposition: String
        /// The source's host, for the request log.
        let sourceHost: String
        /// The `Link` header of a canonical source (``HTTPConfiguration/setsCanonicalHeader``), else `nil`.
        let canonicalLink: String?
    }

    private let storage: Locked<LRUStorage<Key, Answer>>

    /// At most `count` paths, of at most `bytes` in total (each path's length and the source's, plus a fixed
    /// estimate of the rest).
    init(count: Int = 10_000, bytes: Int = 8 << 20) {
        storage = Locked(LRUStorage(costLimit: bytes, countLimit: count))
    }

    /// The answer kept for `key`, now the most recently used.
    func answer(for key: Key) -> Answer? {
        storage.withLock { $0.value(forKey: key) }
    }

    /// Keeps `answer` for `key`.
    func remember(_ answer: Answer, for key: Key) {
        let cost = key.path.utf8.count + answer.key.source.utf8.count + answer.key.identity.utf8.count + 256
        storage.withLock { $0.set(answer, forKey: key, cost: cost) }
    }
}
