import Foundation

/// Several caches behind one ``ImageCaching``, each kind of operation with its own ``ImageCachesPolicy``
/// (SDWebImage's `SDImageCachesManager`).
///
/// The first cache has the highest priority. With the default policies a query asks the caches in order and stops
/// at the first hit, a store goes to the first cache only, and removal and clearing go to all at once.
public struct ImageCaches: ImageCaching {
    /// The policy of each kind of operation.
    public struct Policies: Sendable, Hashable {
        /// For ``ImageCaching/query(forKey:in:decode:)``. Default: ``ImageCachesPolicy/serial``.
        public var query: ImageCachesPolicy
        /// For ``ImageCaching/store(_:data:forKey:attributes:in:)``. Default: ``ImageCachesPolicy/highestOnly``.
        public var store: ImageCachesPolicy
        /// For ``ImageCaching/remove(forKey:from:)``. Default: ``ImageCachesPolicy/concurrent``.
        public var remove: ImageCachesPolicy
        /// For ``ImageCaching/contains(_:in:)``. Default: ``ImageCachesPolicy/serial``.
        public var contains: ImageCachesPolicy
        /// For ``ImageCaching/removeAll(from:)`` and ``ImageCaching/trim()``.
        /// Default: ``ImageCachesPolicy/concurrent``.
        public var clear: ImageCachesPolicy

        /// Creates policies; the defaults are SDWebImage's.
        public init(
            query: ImageCachesPolicy = .serial, store: ImageCachesPolicy = .highestOnly,
            remove: ImageCachesPolicy = .concurrent, contains: ImageCachesPolicy = .serial,
            clear: ImageCachesPolicy = .concurrent
        ) {
            self.query = query
            self.store = store
            self.remove = remove
            self.contains = contains
            self.clear = clear
        }
    }

    /// The caches, highest priority first.
    public let caches: [any ImageCaching]
    /// The policy of each kind of operation.
    public let policies: Policies

    /// A composite of `caches`, highest priority first.
    public init(_ caches: [any ImageCaching], policies: Policies = Policies()) {
        self.caches = caches
        self.policies = policies
    }

    /// The first memory hit among the caches the query policy touches, in priority order.
    public func cachedImage(forKey key: String) -> Image? {
        for cache in policies.query.select(caches) {
            if let image = cache.cachedImage(forKey: key) { return image }
        }
        return nil
    }

    public func query(forKey key: String, in types: ImageCacheType, decode: Bool) async -> ImageCacheResult? {
        await first(policies.query) { await $0.query(forKey: key, in: types, decode: decode) }
    }

    public func store(
        _ image: Image?, data: Data?, forKey key: String, attributes: CacheEntryAttributes, in types: ImageCacheType
    ) async throws(WebImageError) {
        let selected = policies.store.select(caches)
        guard policies.store.isConcurrent else {
            for cache in selected {
                try await cache.store(image, data: data, forKey: key, attributes: attributes, in: types)
            }
            return
        }
        let errors = await withTaskGroup(of: WebImageError?.self) { group in
            for cache in selected {
                group.addTask {
                    do throws(WebImageError) {
                        try await cache.store(image, data: data, forKey: key, attributes: attributes, in: types)
                        return nil
                    } catch { return error }
                }
            }
            return await group.compactMap { $0 }.reduce(into: []) { $0.append($1) }
        }
        if let error = errors.first { throw error }
    }

    /// The encoding of the first cache (in the store policy's order) that encodes for the disk itself, so that the
    /// manager encodes on its work queue for a composite too; `nil` when none does.
    public func encodedForDisk(
        _ image: Image, attributes: CacheEntryAttributes
    ) throws(WebImageError) -> (data: Data, attributes: CacheEntryAttributes)? {
        for cache in policies.store.select(caches) {
            if let encoded = try cache.encodedForDisk(image, attributes: attributes) { return encoded }
        }
        return nil
    }

    public func remove(forKey key: String, from types: ImageCacheType) async {
        await forEach(policies.remove) { await $0.remove(forKey: key, from: types) }
    }

    public func contains(_ key: String, in types: ImageCacheType) async -> ImageCacheType {
        let found = await first(policies.contains) { cache -> ImageCacheType? in
            let type = await cache.contains(key, in: types)
            return type == .none ? nil : type
        }
        return found ?? .none
    }

    public func removeAll(from types: ImageCacheType) async {
        await forEach(policies.clear) { await $0.removeAll(from: types) }
    }

    /// The sum over all caches.
    public func count(in types: ImageCacheType) async -> Int {
        var total = 0
        for cache in caches { total += await cache.count(in: types) }
        return total
    }

    /// The sum over all caches.
    public func totalSize(in types: ImageCacheType) async -> Int {
        var total = 0
        for cache in caches { total += await cache.totalSize(in: types) }
        return total
    }

    public func trim() async {
        await forEach(policies.clear) { await $0.trim() }
    }

    /// The first non-`nil` answer: in priority order when serial (or single), by arrival when concurrent.
    private func first<T: Sendable>(
        _ policy: ImageCachesPolicy, _ operation: @escaping @Sendable (any ImageCaching) async -> T?
    ) async -> T? {
        let selected = policy.select(caches)
        guard policy.isConcurrent else {
            for cache in selected {
                if let answer = await operation(cache) { return answer }
            }
            return nil
        }
        return await withTaskGroup(of: T?.self) { group in
            for cache in selected { group.addTask { await operation(cache) } }
            for await answer in group {
                if let answer {
                    group.cancelAll()
                    return answer
                }
            }
            return nil
        }
    }

    private func forEach(
        _ policy: ImageCachesPolicy, _ operation: @escaping @Sendable (any ImageCaching) async -> Void
    )
        async
    {
        let selected = policy.select(caches)
        guard policy.isConcurrent else {
            for cache in selected { await operation(cache) }
            return
        }
        await withTaskGroup(of: Void.self) { group in
            for cache in selected { group.addTask { await operation(cache) } }
        }
    }
}
