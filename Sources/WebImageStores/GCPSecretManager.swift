import Foundation
import WebImage

/// Reads a version of a GCP Secret Manager secret (`GET ENDPOINT/v1/projects/P/secrets/S/versions/V:access`), as
/// imgproxy's `IMGPROXY_ENV_GCP_SECRET_ID` does at start: authenticated with a token of the `cloud-platform` scope
/// of ``GoogleCredentials``, got as for ``GCSClient``. The answer's `payload.data` is the secret, base64-decoded.
public struct GCPSecretManager: Sendable {
    /// Google's endpoint, used when none is set.
    public static let defaultEndpoint = URL(string: "https://secretmanager.googleapis.com")!
    static let scope = "https://www.googleapis.com/auth/cloud-platform"

    /// The API's base URL.
    public var endpoint: URL
    /// The credentials whose tokens authorise the read.
    public var credentials: GoogleCredentials
    /// How long the token exchange and the read may take together; default a minute, as imgproxy's.
    public var timeout: Duration

    /// A reader of `endpoint`'s secrets with `account`'s tokens.
    public init(
        endpoint: URL = GCPSecretManager.defaultEndpoint, account: GoogleServiceAccount,
        timeout: Duration = .seconds(60)
    ) {
        self.init(endpoint: endpoint, credentials: .serviceAccount(account), timeout: timeout)
    }

    /// A reader of `endpoint`'s secrets with the tokens of `credentials`.
    public init(
        endpoint: URL = GCPSecretManager.defaultEndpoint, credentials: GoogleCredentials,
        timeout: Duration = .seconds(60)
    ) {
        self.endpoint = endpoint
        self.credentials = credentials
        self.timeout = timeout
    }

    /// The data of `version` (`latest` or a number) of the secret `secret` of `project`; empty when the secret is.
    ///
    /// - Throws: ``CloudStoreError/Code/secretUnavailable`` for a refused or failed read or an answer without a
    ///   payload, ``CloudStoreError/Code/authenticationFailed`` when the token service refuses the key.
    public func access(project: String, secret: String, version: String) async throws(CloudStoreError) -> Data {
        let http = StoreHTTPClient(store: "GCP Secret Manager")
        let result: Result<Data, CloudStoreError>
        do { result = .success(try await access(project: project, secret: secret, version: version, http: http)) } catch
        {
            result = .failure(error)
        }
        try? await http.shutdown()
        return try result.get()
    }

    private func access(
        project: String, secret: String, version: String, http: StoreHTTPClient
    ) async throws(CloudStoreError) -> Data {
        let tokens = credentials.tokens(scope: Self.scope, http: http, timeout: timeout)
        var base = endpoint.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let name =
            "projects/" + StoreHTTPClient.escape(project) + "/secrets/" + StoreHTTPClient.escape(secret)
            + "/versions/" + StoreHTTPClient.escape(version)
        let response: StoreHTTPClient.Response
        do {
            let token = try await tokens.current()
            response = try await http.send(
                .GET, base + "/v1/" + name + ":access", headers: [("Authorization", "Bearer " + token)],
                timeout: timeout, maxSize: 1 << 20, operation: "access \(name)")
        } catch {
            if let refusal = error.underlying as? CloudStoreError { throw refusal }
            throw CloudStoreError(.secretUnavailable, "can't get Google Cloud Secret Manager secret: \(error.message)")
        }
        guard response.status == 200 else {
            throw CloudStoreError(
                .secretUnavailable, "can't get Google Cloud Secret Manager secret: \(name) answered \(response.status)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
            let payload = object["payload"] as? [String: Any]
        else {
            throw CloudStoreError(.secretUnavailable, "can't get Google Cloud Secret Manager secret: payload is empty")
        }
        guard let text = payload["data"] as? String else { return Data() }
        guard let data = Data(base64Encoded: text) else {
            throw CloudStoreError(.secretUnavailable, "the secret's payload is not base64")
        }
        return data
    }
}
