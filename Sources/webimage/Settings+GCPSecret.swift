import ArgumentParser
import Foundation
import WebImageServer
import WebImageStores

/// imgproxy's `IMGPROXY_ENV_GCP_SECRET_ID`: variables read from a GCP Secret Manager secret at start, set in the
/// environment over those already set, before the environment file's (which replace them in turn), as imgproxy's
/// `env.Load` sets them.
extension Settings {
    static let envGCPSecretID = Setting<String>(nil, .text, imgproxy: ["IMGPROXY_ENV_GCP_SECRET_ID"])
    static let envGCPSecretVersion = Setting<String>(nil, .text, imgproxy: ["IMGPROXY_ENV_GCP_SECRET_VERSION_ID"])
    static let envGCPSecretProject = Setting<String>(nil, .text, imgproxy: ["IMGPROXY_ENV_GCP_SECRET_PROJECT_ID"])
    static let envGCPKey = Setting<String>(nil, .text, imgproxy: ["IMGPROXY_ENV_GCP_KEY"])
    /// Secret Manager's base URL, for tests and private endpoints; Google's by default, as imgproxy's.
    static let gcpSecretManagerEndpoint = Setting<String>(nil, .text, webimage: "GCP_SECRET_MANAGER_ENDPOINT")

    /// The settings of this file, for ``all``.
    static let gcpSecret: [any SettingVariables] = [
        envGCPSecretID, envGCPSecretVersion, envGCPSecretProject, envGCPKey, gcpSecretManagerEndpoint,
    ]

    /// Reads the secret `IMGPROXY_ENV_GCP_SECRET_ID` names (version `IMGPROXY_ENV_GCP_SECRET_VERSION_ID`, else
    /// `latest`, of the project `IMGPROXY_ENV_GCP_SECRET_PROJECT_ID`) with the service-account key
    /// `IMGPROXY_ENV_GCP_KEY` (else Google's application default credentials), and sets its `KEY=value` lines in the environment; nothing without a secret id.
    ///
    /// - Throws: `ValidationError` for a missing or unusable key, a refused or failed read, a secret that is not
    ///   `KEY=value` lines; never quoting the key or the secret.
    static func loadGCPSecret() async throws {
        guard let secret = try envGCPSecretID.resolve(nil) else { return }
        let version = try envGCPSecretVersion.resolve(nil) ?? "latest"
        let project = try envGCPSecretProject.resolve(nil) ?? ""
        let credentials: GoogleCredentials
        if let key = try envGCPKey.resolve(nil) {
            do { credentials = .serviceAccount(try GoogleServiceAccount(json: key)) } catch {
                throw ValidationError("IMGPROXY_ENV_GCP_KEY: \(error)")
            }
        } else {
            credentials = try googleApplicationDefault().credentials
        }
        var endpoint = GCPSecretManager.defaultEndpoint
        if let text = try gcpSecretManagerEndpoint.resolve(nil) {
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host?.isEmpty == false
            else { throw ValidationError("WEBIMAGE_GCP_SECRET_MANAGER_ENDPOINT must be an http(s) URL") }
            endpoint = url
        }
        let data: Data
        do {
            data = try await GCPSecretManager(endpoint: endpoint, credentials: credentials)
                .access(project: project, secret: secret, version: version)
        } catch { throw ValidationError("IMGPROXY_ENV_GCP_SECRET_ID: \(error)") }
        guard !data.isEmpty else { return }
        let entries: [(name: String, value: String)]
        do {
            entries = try EnvironmentFile.parse(
                String(decoding: data, as: UTF8.self), environment: ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError("IMGPROXY_ENV_GCP_SECRET_ID: can't parse config from GCP Secret Manager")
        }
        for (name, value) in entries {
            guard !name.isEmpty, !name.contains("="), !name.contains("\0"), setenv(name, value, 1) == 0 else {
                throw ValidationError("IMGPROXY_ENV_GCP_SECRET_ID: cannot set the variable '\(name)'")
            }
        }
    }

    /// Google's application default credentials, as Go's `google.FindDefaultCredentials` finds them: the file
    /// `GOOGLE_APPLICATION_CREDENTIALS` names, gcloud's file in the home directory, else the metadata server
    /// (`GCE_METADATA_HOST`), with where they were found.
    ///
    /// - Throws: `ValidationError` for a named file that cannot be read or holds no usable credentials.
    static func googleApplicationDefault() throws -> (credentials: GoogleCredentials, origin: String) {
        do {
            return try GoogleCredentials.applicationDefault(
                environment: ProcessInfo.processInfo.environment, home: Env.value("HOME") ?? NSHomeDirectory())
        } catch { throw ValidationError("\(error)") }
    }
}
