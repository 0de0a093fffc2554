import Foundation
import WebImage
import WebImageStores

/// Results by their typed key: a memory tier of encoded results, a disk tier in its own directory (never among the
/// originals), the cluster's shared tier when there is one, and one shared run per key in flight (the package's
/// ``WorkMerger``), so identical concurrent requests make one fetch and one processing run, and a run whose last
/// caller has gone is cancelled.
///
/// Each result is kept with its origin's validators (``StoredResult/origin``): in the disk entry's `ETag` and
/// `Last-Modified` fields (an empty `ETag` when the origin sent none) and in the shared object's metadata. A disk
/// entry without an `ETag` field, or a shared object without the `validators` mark, was stored before results kept
/// them: it is taken as a miss, made again and (on disk) replaced. The origin's `Cache-Control` and `Expires` are kept
/// the same way (an empty text when it sent none; the `freshness` mark in the shared tier): while the server passes
/// them on (``keepsFreshness``), a result stored without them is a miss.
final class ResultStore: Sendable {
    private let disk: DiskCache?
    private let shared: SharedStore?
    let memory: ResultMemoryCache
    /// The keys of the results served since the start, by source, for a purge.
    private let keysBySource = Locked<[String: Set<ResultKey>]>([:])
    private let runs = WorkMerger<ResultKey, StoredResult, Never, ImageServerError>()
    /// How many results have been made (fetched and processed) since the start, for monitoring.
    private let made = Locked(0)
    /// Records the `result store` span of a result made here.
    private let tracing: RequestTracing
    /// Makes each result's `ETag` and `Last-Modified` once, when it enters memory.
    private let validators: ResponseValidators
    /// Whether each result keeps its ``DebugFacts`` (`--enable-debug-headers`): on disk in an entry of their own
    /// (the result's name and ``debugSuffix``), in the shared tier in the `debug` metadata; a result without them is
    /// then a miss.
    private let keepsDebugFacts: Bool
    /// Whether a result must come with its origin's `Cache-Control` and `Expires` (`--cache-control-passthrough`).
    private let keepsFreshness: Bool
    /// Logs each lookup, store and purge (`--vips-cache-trace`); `nil`: nothing.
    private let trace: CacheTrace?

    /// How many results have been made since the start: cache hits and joined runs do not count.
    var madeCount: Int { made.withLock { $0 } }

    /// How many results are being made now (one run per key, however many callers wait for it).
    var runsInFlight: Int { runs.count }

    init(
        disk: DiskCache?, memoryBytes: Int, shared: SharedStore? = nil, tracing: RequestTracing = .init(enabled: false),
        validators: ResponseValidators = ResponseValidators(HTTPConfiguration()), keepsDebugFacts: Bool = false,
        keepsFreshness: Bool = false, trace: CacheTrace? = nil
    ) {
        self.disk = disk
        self.trace = trace
        self.keepsFreshness = keepsFreshness
        self.validators = validators
        self.keepsDebugFacts = keepsDebugFacts
        self.shared = shared
        self.tracing = tracing
        memory = ResultMemoryCache(byteLimit: memoryBytes)
    }

    /// The cached result `key`, if any, without making it: memory, then disk, then the shared tier (a hit from a
    /// slower tier is kept in the faster ones).
    func cached(_ key: ResultKey) async -> (StoredResult, CacheOutcome)? {
        if let hit = await local(key) { return hit }
        guard let shared,
            let object = await tracing.stage(
                "shared cache",
                { span in
                    let object = await shared.result(source: key.source, identity: key.identity)
                    span?.attributes["webimage.cache"] = object == nil ? "miss" : "shared"
                    return object
                })
        else { return nil }
        guard object.metadata[Self.validatorsMark] == "origin" else { return nil }
        guard object.metadata[Self.freshnessMark] == "origin" || !keepsFreshness else { return nil }
        let origin = ImageValidators(
            etag: object.metadata["source-etag"], lastModified: object.metadata["source-last-modified"],
            cacheControl: object.metadata["source-cache-control"], expires: object.metadata["source-expires"])
        let debug = object.metadata["debug"].flatMap(DebugFacts.init(text:))
        guard debug != nil || !keepsDebugFacts else { return nil }
        let stored = StoredResult(
            data: object.data, format: ImageFormat.sniff(object.data), origin: origin, validators: validators,
            debug: keepsDebugFacts ? debug : nil)
        trace?.record(.hit, key, tier: "shared")
        await keepLocally(stored, data: object.data, key)
        return (stored, .shared)
    }

    /// The result `key` from this node's own tiers, memory then disk (a disk hit is kept in memory), if either has
    /// it: never the shared tier, so never a network request.
    func local(_ key: ResultKey) async -> (StoredResult, CacheOutcome)? {
        if let hit = memory.result(forKey: key) {
            trace?.record(.hit, key, tier: "memory")
            return (hit, .memory)
        }
        guard let entry = await disk?.entry(forKey: key.hex), let etag = entry.metadata.etag else { return nil }
        let metadata = entry.metadata
        guard metadata.cacheControl != nil || !keepsFreshness else { return nil }
        let origin = ImageValidators(
            etag: etag.isEmpty ? nil : etag, lastModified: metadata.lastModified,
            cacheControl: metadata.cacheControl.flatMap { $0.isEmpty ? nil : $0 },
            expires: metadata.expiresHeader.flatMap { $0.isEmpty ? nil : $0 })
        var debug: DebugFacts?
        if keepsDebugFacts {
            let facts = await disk?.entry(forKey: key.hex + Self.debugSuffix).flatMap {
                DebugFacts(text: String(decoding: $0.data, as: UTF8.self))
            }
            guard let facts else { return nil }
            debug = facts
        }
        let result = StoredResult(
            data: entry.data, format: metadata.format, origin: origin, validators: validators, debug: debug)
        trace?.record(.hit, key, tier: "disk")
        remember(key)
        if memory.set(result, forKey: key) { trace?.record(.store, key, tier: "memory") }
        return (result, .disk)
    }

    /// Drops every result of `source` this node has served since the start from its tiers; returns how many.
    func forget(source: String) async -> Int {
        let keys = keysBySource.withLock { $0.removeValue(forKey: source) } ?? []
        for key in keys {
            trace?.record(.purge, key)
            memory.remove(forKey: key)
            await disk?.remove(forKey: key.hex)
            if keepsDebugFacts { await disk?.remove(forKey: key.hex + Self.debugSuffix) }
        }
        return keys.count
    }

    /// The result `key`: cached, joined from a run in flight, or made by `make` (once for all callers).
    func result(
        for key: ResultKey, make: @escaping @Sendable () async throws(ImageServerError) -> ProcessedImage
    ) async throws(ImageServerError) -> (StoredResult, CacheOutcome) {
        if let hit = await cached(key) { return hit }
        trace?.record(.miss, key)
        let stored = try await runs.value(for: key) { key throws(ImageServerError) in try await self.make(key, make) }
        return (stored, .miss)
    }

    /// The body of a run: the tiers once more (a run that just finished may have stored it), else `make`, kept in
    /// every tier.
    private func make(
        _ key: ResultKey, _ make: @Sendable () async throws(ImageServerError) -> ProcessedImage
    ) async throws(ImageServerError) -> StoredResult {
        if let hit = await cached(key)?.0 { return hit }
        made.withLock { $0 += 1 }
        let result = try await make()
        let stored = StoredResult(
            data: result.data, format: result.format, origin: result.source, validators: validators,
            debug: keepsDebugFacts ? result.debugFacts : nil)
        await tracing.stage("result store") { _ in
            await keepLocally(stored, data: result.data, key)
            var metadata = [Self.validatorsMark: "origin", Self.freshnessMark: "origin"]
            if let etag = result.source.etag { metadata["source-etag"] = etag }
            if let modified = result.source.lastModified { metadata["source-last-modified"] = modified }
            if let cacheControl = result.source.cacheControl { metadata["source-cache-control"] = cacheControl }
            if let expires = result.source.expires { metadata["source-expires"] = expires }
            if let facts = result.debugFacts { metadata["debug"] = facts.text }
            let wrote = await shared?.storeResult(
                result.data, contentType: result.format.mimeType, metadata: metadata, source: key.source,
                identity: key.identity)
            if wrote == true { trace?.record(.store, key, tier: "shared") }
        }
        return stored
    }

    /// Keeps a result (whose bytes are `data`) in memory and on disk, and remembers it under its source for a purge.
    private func keepLocally(_ stored: StoredResult, data: Data, _ key: ResultKey) async {
        remember(key)
        if memory.set(stored, forKey: key) { trace?.record(.store, key, tier: "memory") }
        // Empty texts for what the origin did not send: an entry without them was stored before they were kept.
        let attributes = CacheEntryAttributes(
            format: stored.format, etag: stored.origin.etag ?? "", lastModified: stored.origin.lastModified,
            cacheControl: stored.origin.cacheControl ?? "", expiresHeader: stored.origin.expires ?? "")
        if let disk, (try? await disk.store(data, forKey: key.hex, attributes: attributes)) != nil {
            trace?.record(.store, key, tier: "disk")
        }
        if let debug = stored.debug {
            try? await disk?.store(Data(debug.text.utf8), forKey: key.hex + Self.debugSuffix)
        }
    }

    /// The shared object's metadata field that marks a result stored with its origin's validators.
    static let validatorsMark = "validators"
    /// The shared object's metadata field that marks a result stored with its origin's `Cache-Control` and `Expires`.
    static let freshnessMark = "freshness"
    /// What a result's name ends with in the name of its ``DebugFacts``' disk entry.
    static let debugSuffix = ".debug"

    private func remember(_ key: ResultKey) {
        keysBySource.withLock { _ = $0[key.source, default: []].insert(key) }
    }
}

extension ImageServerError: WorkFailure {
    /// A caller that went away (a closed connection, the request deadline) before its result was made.
    package static var cancelled: ImageServerError { ImageServerError(status: 503, "request cancelled") }
}
