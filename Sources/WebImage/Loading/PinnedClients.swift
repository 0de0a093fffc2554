import AsyncHTTPClient

/// HTTP clients that each connect one host name to one checked address, for ``SourceAddressPolicy``.
///
/// AsyncHTTPClient has no hook at connect time, but its `dnsOverride` maps a host to an address literal that it
/// connects to without resolving, while keeping the host name for the `Host` header, SNI and certificate checks.
/// The override is fixed per client, so there is one client per (host, address, certificate mode), made on first
/// use. Clients in use are never shut down under their requests; idle ones beyond ``idleLimit`` are, least recently
/// used first, so a server fetching from many origins keeps a bounded number of pools.
final class PinnedClients: Sendable {
    struct Key: Hashable, Sendable {
        /// The host exactly as AsyncHTTPClient looks it up in `dnsOverride` (`HTTPClient.Request.host`).
        var host: String
        /// The literal the connection goes to.
        var address: String
        var allowsInvalidCertificates: Bool
    }

    private struct Entry {
        var client: HTTPClient
        var users = 0
        var lastUse: UInt64 = 0
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var clock: UInt64 = 0
        var isShutDown = false
    }

    /// Idle clients kept for reuse.
    let idleLimit: Int
    private let makeConfiguration: @Sendable (_ allowsInvalidCertificates: Bool) -> HTTPClient.Configuration
    private let state = Locked(State())

    init(
        idleLimit: Int = 16,
        makeConfiguration: @escaping @Sendable (_ allowsInvalidCertificates: Bool) -> HTTPClient.Configuration
    ) {
        self.idleLimit = idleLimit
        self.makeConfiguration = makeConfiguration
    }

    /// The client for `key`, counted as in use until ``release(_:)``. After ``shutdown()`` the client is already
    /// shut down, so its requests fail as the loader's own client's do.
    func acquire(_ key: Key) -> HTTPClient {
        state.withLock { state in
            state.clock += 1
            if var entry = state.entries[key] {
                entry.users += 1
                entry.lastUse = state.clock
                state.entries[key] = entry
                return entry.client
            }
            var configuration = makeConfiguration(key.allowsInvalidCertificates)
            configuration.dnsOverride = [key.host: key.address]
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            if state.isShutDown {
                client.shutdown { _ in }
            } else {
                state.entries[key] = Entry(client: client, users: 1, lastUse: state.clock)
            }
            return client
        }
    }

    /// Ends one use of `key`'s client; shuts idle clients down beyond ``idleLimit``.
    func release(_ key: Key) {
        let evicted = state.withLock { state -> [HTTPClient] in
            guard var entry = state.entries[key] else { return [] }
            entry.users -= 1
            state.entries[key] = entry
            let idle = state.entries.filter { $0.value.users == 0 }
            guard idle.count > idleLimit else { return [] }
            let oldest = idle.sorted { $0.value.lastUse < $1.value.lastUse }.prefix(idle.count - idleLimit)
            return oldest.compactMap { state.entries.removeValue(forKey: $0.key)?.client }
        }
        for client in evicted { client.shutdown { _ in } }
    }

    /// Shuts every client down; clients acquired later are shut down at once. Idempotent.
    func shutdown() async throws {
        for client in takeAll() { try await client.shutdown() }
    }

    /// Shuts every client down without waiting, for a loader released without ``shutdown()``.
    func shutdownInBackground() {
        for client in takeAll() { client.shutdown { _ in } }
    }

    /// The clients to shut down, once.
    private func takeAll() -> [HTTPClient] {
        state.withLock { state in
            state.isShutDown = true
            defer { state.entries = [:] }
            return state.entries.values.map(\.client)
        }
    }

    /// Clients kept now, for tests.
    var count: Int { state.withLock { $0.entries.count } }
}
