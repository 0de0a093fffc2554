import ArgumentParser
import Foundation
import Logging
import WebImageServer
import WebImageStores

/// imgproxy's Google Cloud Storage, Azure Blob Storage and OpenStack Swift sources (`IMGPROXY_USE_GCS`,
/// `IMGPROXY_USE_ABS`, `IMGPROXY_USE_SWIFT` and their settings): read from imgproxy's variables only, since the
/// keys they hold must not be flags (which `ps` shows).
extension Settings {
    static let useGCS = Setting<Bool>(nil, .boolean, imgproxy: ["IMGPROXY_USE_GCS"])
    static let gcsKey = Setting<String>(nil, .text, imgproxy: ["IMGPROXY_GCS_KEY"])
    static let gcsEndpoint = Setting<String>(nil, .text, imgproxy: ["IMGPROXY_GCS_ENDPOINT"])
    static let gcsAllowedBuckets = Setting<[String]>(nil, .list(), imgproxy: ["IMGPROXY_GCS_ALLOWED_BUCKETS"])
    static let gcsDeniedBuckets = Setting<[String]>(nil, .list(), imgproxy: ["IMGPROXY_GCS_DENIED_BUCKETS"])
    static let useABS = Setting<Bool>(nil, .boolean, imgproxy: ["IMGPROXY_USE_ABS"])
    static let absName = Setting<String>(nil, .text, imgproxy: ["IMGPROXY_ABS_NAME"])
    static let absKey = Setting<String>(nil, .text, imgproxy: ["IMGPROXY_ABS_KEY"])
    static let absEndpoint = Setting<String>(nil, .text, imgproxy: ["IMGPROXY_ABS_ENDPOINT"])
    static let absAllowedBuckets = Setting<[String]>(nil, .list(), imgproxy: ["IMGPROXY_ABS_ALLOWED_BUCKETS"])
    static let absDeniedBuckets = Setting<[String]>(nil, .list(), imgproxy: ["IMGPROXY_ABS_DENIED_BUCKETS"])
    static let useSwift = Setting<Bool>(nil, .boolean, imgproxy: ["IMGPROXY_USE_SWIFT"])
    static let swiftUsername = Setting<String>(nil, .text, imgproxy: ["IMGPROXY_SWIFT_USERNAME"])
    static let swiftAPIKey = Setting<String>(nil, .text, imgproxy: ["IMGPROXY_SWIFT_API_KEY"])
    static let swiftAuthURL = Setting<String>(nil, .text, imgproxy: ["IMGPROXY_SWIFT_AUTH_URL"])
    static let swiftDomain = Setting<String>(nil, .text, imgproxy: ["IMGPROXY_SWIFT_DOMAIN"])
    static let swiftTenant = Setting<String>(nil, .text, imgproxy: ["IMGPROXY_SWIFT_TENANT"])
    static let swiftAuthVersion = Setting<Int>(nil, .integer, imgproxy: ["IMGPROXY_SWIFT_AUTH_VERSION"])
    static let swiftConnectTimeout = Setting<Int>(nil, .integer, imgproxy: ["IMGPROXY_SWIFT_CONNECT_TIMEOUT_SECONDS"])
    static let swiftTimeout = Setting<Int>(nil, .integer, imgproxy: ["IMGPROXY_SWIFT_TIMEOUT_SECONDS"])
    static let swiftAllowedBuckets = Setting<[String]>(nil, .list(), imgproxy: ["IMGPROXY_SWIFT_ALLOWED_BUCKETS"])
    static let swiftDeniedBuckets = Setting<[String]>(nil, .list(), imgproxy: ["IMGPROXY_SWIFT_DENIED_BUCKETS"])

    /// The settings of this file, for ``all``.
    static let objectSources: [any SettingVariables] = [
        useGCS, gcsKey, gcsEndpoint, gcsAllowedBuckets, gcsDeniedBuckets, useABS, absName, absKey, absEndpoint,
        absAllowedBuckets, absDeniedBuckets, useSwift, swiftUsername, swiftAPIKey, swiftAuthURL,
        swiftDomain,
        swiftTenant, swiftAuthVersion, swiftConnectTimeout, swiftTimeout, swiftAllowedBuckets, swiftDeniedBuckets,
    ]

    /// The `gs://`, `abs://` and `swift://` loaders the variables turn on, their clients made (not yet signed in:
    /// ``SwiftClient/authenticate()`` is for the start); each request ends within `timeout` (the download timeout).
    ///
    /// - Throws: `ValidationError` for a key that cannot be used, a missing account name, an endpoint or auth URL
    ///   that is not `http(s)`, a timeout that is not positive; never quoting a key.
    static func objectStoreLoaders(timeout: Duration, logger: Logger) throws -> [ObjectStoreImageLoader] {
        var loaders: [ObjectStoreImageLoader] = []
        if try useGCS.resolve(switch: false) {
            let key = try gcsKey.resolve(nil)
            let endpoint = try gcsEndpoint.resolve(nil).map { try url($0, "IMGPROXY_GCS_ENDPOINT") }
            var credentials: GoogleCredentials?
            var origin = "none"
            if let key {
                do { credentials = .serviceAccount(try GoogleServiceAccount(json: key)) } catch {
                    throw ValidationError("IMGPROXY_GCS_KEY: \(error)")
                }
                origin = "IMGPROXY_GCS_KEY"
            } else {
                (credentials, origin) = try googleApplicationDefault()
            }
            let client = GCSClient(
                endpoint: endpoint ?? GCSClient.defaultEndpoint, credentials: credentials, timeout: timeout)
            logger.info(
                "GCS sources",
                metadata: [
                    "endpoint": "\(client.endpoint)",
                    "credentials": "\(credentials.map { "\($0) from \(origin)" } ?? "none")",
                ])
            loaders.append(
                ObjectStoreImageLoader(
                    scheme: "gs", storeName: "GCS", store: client,
                    buckets: try buckets(gcsAllowedBuckets, gcsDeniedBuckets)))
        }
        if try useABS.resolve(switch: false) {
            guard let name = try absName.resolve(nil) else {
                throw ValidationError("IMGPROXY_USE_ABS: IMGPROXY_ABS_NAME (the storage account) is not set")
            }
            let endpoint =
                try absEndpoint.resolve(nil).map { try url($0, "IMGPROXY_ABS_ENDPOINT") }
                ?? AzureBlobClient.defaultEndpoint(account: name)
            guard let endpoint else { throw ValidationError("IMGPROXY_ABS_NAME: '\(name)' is not a host name") }
            let client: AzureBlobClient
            let credentials: String
            if let key = try absKey.resolve(nil) {
                do {
                    client = AzureBlobClient(
                        endpoint: endpoint, signer: try AzureSharedKey(account: name, key: key), timeout: timeout)
                } catch { throw ValidationError("\(error)") }
                credentials = "shared key"
            } else {
                // MSAL, under azidentity, moves IMDS to the host of `AZURE_POD_IDENTITY_AUTHORITY_HOST`.
                let podIdentityHost = ProcessInfo.processInfo.environment["AZURE_POD_IDENTITY_AUTHORITY_HOST"]
                let imds =
                    try podIdentityHost.flatMap { $0.isEmpty ? nil : $0 }.map { host in
                        let base = host.hasSuffix("/") ? String(host.dropLast()) : host
                        return try url(base + "/metadata/identity/oauth2/token", "AZURE_POD_IDENTITY_AUTHORITY_HOST")
                    } ?? AzureCredentials.defaultInstanceMetadataEndpoint
                let chain: (credentials: AzureCredentials, origin: String)
                do {
                    chain = try AzureCredentials.defaultChain(
                        environment: ProcessInfo.processInfo.environment, imdsEndpoint: imds)
                } catch { throw ValidationError("IMGPROXY_USE_ABS: \(error)") }
                client = AzureBlobClient(endpoint: endpoint, credentials: chain.credentials, timeout: timeout)
                credentials = "\(chain.credentials) from \(chain.origin)"
            }
            logger.info(
                "Azure Blob Storage sources",
                metadata: ["endpoint": "\(endpoint)", "account": "\(name)", "credentials": "\(credentials)"])
            loaders.append(
                ObjectStoreImageLoader(
                    scheme: "abs", storeName: "Azure Blob Storage", store: client,
                    buckets: try buckets(absAllowedBuckets, absDeniedBuckets)))
        }
        if try useSwift.resolve(switch: false) {
            loaders.append(try swiftLoader(timeout: timeout, logger: logger))
        }
        return loaders
    }

    /// The `swift://` loader of the `IMGPROXY_SWIFT_` variables (timeouts 10 s to connect and 60 s, as imgproxy's,
    /// each request also within `timeout`).
    private static func swiftLoader(timeout: Duration, logger: Logger) throws -> ObjectStoreImageLoader {
        let authURL = try url(try swiftAuthURL.resolve(nil) ?? "", "IMGPROXY_SWIFT_AUTH_URL")
        let connect = try swiftConnectTimeout.resolve(nil) ?? 10
        let seconds = try swiftTimeout.resolve(nil) ?? 60
        guard (1...3600).contains(connect), (1...3600).contains(seconds) else {
            throw ValidationError(
                "IMGPROXY_SWIFT_CONNECT_TIMEOUT_SECONDS and IMGPROXY_SWIFT_TIMEOUT_SECONDS must be 1 to 3600 seconds")
        }
        let authentication: SwiftAuthentication
        do {
            authentication = try SwiftAuthentication(
                username: try swiftUsername.resolve(nil) ?? "", apiKey: try swiftAPIKey.resolve(nil) ?? "",
                authURL: authURL, domain: try swiftDomain.resolve(nil) ?? "",
                tenant: try swiftTenant.resolve(nil) ?? "", version: try swiftAuthVersion.resolve(nil) ?? 0)
        } catch { throw ValidationError("\(error)") }
        logger.info(
            "Swift sources",
            metadata: [
                "auth_url": "\(authURL)", "auth_version": "\(authentication.version)",
                "user": "\(authentication.username)",
            ])
        let client = SwiftClient(
            authentication: authentication, connectTimeout: .seconds(connect),
            timeout: min(.seconds(seconds), timeout))
        return ObjectStoreImageLoader(
            scheme: "swift", storeName: "Swift", store: client,
            buckets: try buckets(swiftAllowedBuckets, swiftDeniedBuckets))
    }

    private static func buckets(
        _ allowed: Setting<[String]>, _ denied: Setting<[String]>
    ) throws -> S3BucketPolicy {
        S3BucketPolicy(allowed: try allowed.resolve(nil) ?? [], denied: try denied.resolve(nil) ?? [])
    }

    /// `text` as an `http(s)` URL with a host, or a `ValidationError` naming `variable`.
    private static func url(_ text: String, _ variable: String) throws -> URL {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            url.host?.isEmpty == false
        else { throw ValidationError("\(variable) must be an http(s) URL") }
        return url
    }
}
