import Foundation
import WebImage

/// The temporary credentials of an ``S3AssumeRole``, asked for from STS on first use and again within a minute of
/// their expiry; concurrent callers share one `AssumeRole` call.
final class AssumedRoleCredentials: Sendable {
    private enum State {
        case none
        case asking(Task<STSClient.TemporaryCredentials, any Error>)
        case held(STSClient.TemporaryCredentials)
    }

    /// How long before their expiry temporary credentials are replaced.
    static let expiryWindow: TimeInterval = 60

    let role: S3AssumeRole
    private let base: S3Credentials
    private let sts: STSClient
    private let state = Locked(State.none)

    /// Credentials of `role`, asked for with `base`; `timeout` bounds each STS call.
    init(role: S3AssumeRole, base: S3Credentials, timeout: Duration) {
        self.role = role
        self.base = base
        sts = STSClient(
            sender: AWSRequestSender(endpoint: role.endpoint, region: role.region, service: .sts, timeout: timeout))
    }

    /// The current temporary credentials, asked for when there are none or they are about to expire.
    func current() async throws(WebImageError) -> S3Credentials {
        let ready: S3Credentials?
        let task: Task<STSClient.TemporaryCredentials, any Error>?
        (ready, task) = state.withLock { state in
            if case .held(let held) = state, held.expiration.timeIntervalSinceNow > Self.expiryWindow {
                return (held.credentials, nil)
            }
            if case .asking(let task) = state { return (nil, task) }
            let (sts, role, base) = (sts, role, base)
            let task = Task { () async throws -> STSClient.TemporaryCredentials in
                try await sts.assumeRole(
                    role.roleARN, externalID: role.externalID,
                    sessionName: "webimage-\(UInt64(Date().timeIntervalSince1970 * 1000))", duration: role.duration,
                    credentials: base)
            }
            state = .asking(task)
            return (nil, task)
        }
        if let ready { return ready }
        guard let task else { throw WebImageError(.invalidArgument, "no STS credentials") }
        do {
            let fresh = try await task.value
            state.withLock { state in
                if case .asking = state { state = .held(fresh) }
            }
            return fresh.credentials
        } catch {
            state.withLock { state in
                if case .asking = state { state = .none }
            }
            throw error as? WebImageError
                ?? WebImageError(.connectionFailed, "sts AssumeRole failed: \(error)", underlying: error)
        }
    }

    /// Closes STS's connection pool.
    func shutdown() async throws { try await sts.sender.shutdown() }
}
