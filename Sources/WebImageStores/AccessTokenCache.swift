import Foundation
import WebImage

/// One OAuth 2.0 access token at a time, got by a fetch of its owner's (Google's token service or metadata server,
/// Microsoft Entra ID, Azure's managed identity endpoints) and kept until a minute before it expires (at most half its
/// lifetime early), shared by every request: concurrent requests without a token wait for one fetch.
actor AccessTokenCache {
    /// Gets a token and its lifetime.
    typealias Fetch = @Sendable () async throws -> (String, Duration)

    private let fetch: Fetch
    private var token: (value: String, renewAfter: ContinuousClock.Instant)?
    private var running: Task<(String, Duration), any Error>?

    /// A cache of the tokens `fetch` gets.
    init(fetch: @escaping Fetch) { self.fetch = fetch }

    /// A token valid for at least a minute more (or half its lifetime), fetched now if there is none.
    func current() async throws(WebImageError) -> String {
        if let token, ContinuousClock.now < token.renewAfter { return token.value }
        let task: Task<(String, Duration), any Error>
        if let running {
            task = running
        } else {
            let fetch = fetch
            task = Task { try await fetch() }
            running = task
        }
        let started = ContinuousClock.now
        do {
            let (value, lifetime) = try await task.value
            if running == task {
                running = nil
                let margin = min(Duration.seconds(60), lifetime / 2)
                token = (value, started + lifetime - margin)
            }
            return value
        } catch {
            if running == task { running = nil }
            if let error = error as? WebImageError { throw error }
            throw WebImageError(.connectionFailed, "the token request failed: \(error)", underlying: error)
        }
    }

    /// Forgets the token, so that the next request fetches a new one.
    func invalidate() { token = nil }
}
