import ArgumentParser
import Foundation
import WebImageServer
import WebImageStores

/// `webimage serve`'s options for S3: the shared tier of a cluster, purging, peers, and `s3://` sources.
struct ClusterOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A shared cache tier in an S3-compatible store.", valueName: "s3://BUCKET/PREFIX"))
    var sharedStore: String?
    @Option(help: ArgumentHelp("The shared store's S3 endpoint (path-style).", valueName: "URL"))
    var sharedStoreEndpoint: String?
    @Option(help: "The shared store's signing region (default: us-east-1).")
    var sharedStoreRegion: String?
    @Option(help: "Seconds a shared-store operation may take; a slower one is skipped (default: 0.3).")
    var sharedStoreTimeout: Double?
    @Option(help: "Enables POST /admin/purge, signed with this hexadecimal key.")
    var purgeKey: String?
    @Option(help: ArgumentHelp("Another node, to which purges are forwarded (repeatable).", valueName: "URL"))
    var peer: [String] = []
    @Option(
        name: .customLong("self"),
        help: ArgumentHelp("This node's URL as nginx's upstream block and the peers name it.", valueName: "URL"))
    var selfURL: String?
    @Flag(help: "Forward a request whose result another node owns (nginx's hash ring over --self and --peer) to it.")
    var peerForward = false
    @Option(
        help: ArgumentHelp(
            "Read s3://BUCKET/KEY sources from this S3 endpoint (IMGPROXY_S3_ENDPOINT with IMGPROXY_USE_S3).",
            valueName: "URL"))
    var s3SourceEndpoint: String?
    @Option(help: "The S3 source store's signing region (default: us-east-1; IMGPROXY_S3_REGION, AWS_REGION).")
    var s3SourceRegion: String?

    /// Applies these options to `configuration`. Credentials come from the environment, never from flags (which
    /// `ps` shows): WEBIMAGE_S3_ACCESS_KEY and WEBIMAGE_S3_SECRET_KEY for the shared tier,
    /// WEBIMAGE_S3_SOURCE_ACCESS_KEY and WEBIMAGE_S3_SOURCE_SECRET_KEY for sources, or, as imgproxy reads them with
    /// IMGPROXY_USE_S3, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY. With IMGPROXY_USE_S3 and no endpoint, sources
    /// are read from AWS's endpoint of the region.
    func apply(to configuration: inout ImageServerConfiguration) throws {
        if let sharedStore = try Settings.sharedStore.resolve(sharedStore) {
            let location: SharedStoreLocation
            do { location = try SharedStoreLocation(sharedStore) } catch { throw ValidationError(error.message) }
            let timeout = try Settings.sharedStoreTimeout.resolve(sharedStoreTimeout) ?? 0.3
            guard timeout.isFinite, timeout > 0, timeout <= 60 else {
                throw ValidationError("--shared-store-timeout must be between 0 and 60 seconds")
            }
            let client = try Self.client(
                try Settings.sharedStoreEndpoint.resolve(sharedStoreEndpoint),
                region: try Settings.sharedStoreRegion.resolve(sharedStoreRegion) ?? "us-east-1",
                flag: "--shared-store-endpoint", credentials: [("WEBIMAGE_S3_ACCESS_KEY", "WEBIMAGE_S3_SECRET_KEY")],
                timeout: .milliseconds(Int64((timeout * 1000).rounded(.up))))
            configuration.sharedStore = SharedStore(location: location, client: client, logger: configuration.logger)
        }
        let useS3 = try Settings.useS3.resolve(nil) ?? false
        let region = try Settings.s3SourceRegion.resolve(s3SourceRegion, imgproxy: useS3) ?? "us-east-1"
        if let endpoint = try Settings.s3SourceEndpoint.resolve(s3SourceEndpoint, imgproxy: useS3)
            ?? (useS3 ? "https://s3.\(region).amazonaws.com" : nil)
        {
            configuration.s3Sources = try Self.client(
                endpoint, region: region, flag: "--s3-source-endpoint",
                credentials: [("WEBIMAGE_S3_SOURCE_ACCESS_KEY", "WEBIMAGE_S3_SOURCE_SECRET_KEY")]
                    + (useS3 ? [("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")] : []),
                timeout: configuration.limits.downloadTimeout, maxObjectSize: configuration.limits.maxSourceFileSize)
        }
        if let purgeKey = try Settings.purgeKey.resolve(purgeKey) {
            guard let key = URLSigner.bytes(hex: purgeKey), !key.isEmpty else {
                throw ValidationError("--purge-key must be non-empty hexadecimal")
            }
            configuration.purgeKey = key
        }
        configuration.peers = try Settings.peer.resolve(peer).map { try Self.nodeURL($0, flag: "--peer") }
        configuration.selfURL = try Settings.selfURL.resolve(selfURL).map { try Self.nodeURL($0, flag: "--self") }
        configuration.forwardsToOwner = try Settings.peerForward.resolve(switch: peerForward)
    }

    /// A node's URL: `http(s)://HOST[:PORT][/PATH]`.
    private static func nodeURL(_ text: String, flag: String) throws -> URL {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host?.isEmpty == false,
            url.query == nil
        else { throw ValidationError("\(flag) takes http(s)://HOST:PORT, not '\(text)'") }
        return url
    }

    /// An S3 client for `endpoint` with the credentials of the first pair of variables (access key, secret key) set.
    private static func client(
        _ endpoint: String?, region: String, flag: String, credentials: [(access: String, secret: String)],
        timeout: Duration, maxObjectSize: Int = 64 << 20
    ) throws -> S3Client {
        guard let url = endpoint.flatMap(URL.init(string:)), url.host != nil,
            ["http", "https"].contains(url.scheme ?? "")
        else { throw ValidationError("\(flag) takes http(s)://HOST[:PORT]") }
        let found = credentials.lazy.compactMap { pair in
            Env.value(pair.access).flatMap { access in
                Env.value(pair.secret).map { S3Credentials(accessKey: access, secretKey: $0) }
            }
        }.first
        guard let found else {
            let names = credentials.map { "\($0.access) and \($0.secret)" }.joined(separator: ", or ")
            throw ValidationError("\(flag) needs \(names)")
        }
        return S3Client(
            configuration: .init(
                endpoint: url, region: region, credentials: found,
                timeout: timeout, maxObjectSize: maxObjectSize))
    }
}
