import ArgumentParser
import Foundation
import WebImageServer
import WebImageStores

/// `webimage serve`'s options for S3: the shared tier of a cluster, purging, peers, and `s3://` sources.
struct ClusterOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A shared cache tier in an S3-compatible store.", valueName: "s3://BUCKET/PREFIX"))
    var sharedStore = Env.string("SHARED_STORE")
    @Option(help: ArgumentHelp("The shared store's S3 endpoint (path-style).", valueName: "URL"))
    var sharedStoreEndpoint = Env.string("SHARED_STORE_ENDPOINT")
    @Option(help: "The shared store's signing region.")
    var sharedStoreRegion = Env.string("SHARED_STORE_REGION") ?? "us-east-1"
    @Option(help: "Seconds a shared-store operation may take; a slower one is skipped.")
    var sharedStoreTimeout = Env.double("SHARED_STORE_TIMEOUT") ?? 0.3
    @Option(help: "Enables POST /admin/purge, signed with this hexadecimal key.")
    var purgeKey = Env.string("PURGE_KEY")
    @Option(help: ArgumentHelp("Another node, to which purges are forwarded (repeatable).", valueName: "URL"))
    var peer: [String] = Env.list("PEERS")
    @Option(
        name: .customLong("self"),
        help: ArgumentHelp("This node's URL as nginx's upstream block and the peers name it.", valueName: "URL"))
    var selfURL = Env.string("SELF")
    @Flag(help: "Forward a request whose result another node owns (nginx's hash ring over --self and --peer) to it.")
    var peerForward = Env.bool("PEER_FORWARD") ?? false
    @Option(help: ArgumentHelp("Read s3://BUCKET/KEY sources from this S3 endpoint.", valueName: "URL"))
    var s3SourceEndpoint = Env.string("S3_SOURCE_ENDPOINT")
    @Option(help: "The S3 source store's signing region.")
    var s3SourceRegion = Env.string("S3_SOURCE_REGION") ?? "us-east-1"

    /// Applies these options to `configuration`. Credentials come from the environment, never from flags (which
    /// `ps` shows): WEBIMAGE_S3_ACCESS_KEY and WEBIMAGE_S3_SECRET_KEY for the shared tier,
    /// WEBIMAGE_S3_SOURCE_ACCESS_KEY and WEBIMAGE_S3_SOURCE_SECRET_KEY for sources.
    func apply(to configuration: inout ImageServerConfiguration) throws {
        if let sharedStore {
            let location: SharedStoreLocation
            do { location = try SharedStoreLocation(sharedStore) } catch { throw ValidationError(error.message) }
            guard sharedStoreTimeout.isFinite, sharedStoreTimeout > 0, sharedStoreTimeout <= 60 else {
                throw ValidationError("--shared-store-timeout must be between 0 and 60 seconds")
            }
            let client = try Self.client(
                sharedStoreEndpoint, region: sharedStoreRegion, flag: "--shared-store-endpoint", credentials: "S3",
                timeout: .milliseconds(Int64((sharedStoreTimeout * 1000).rounded(.up))))
            configuration.sharedStore = SharedStore(location: location, client: client, logger: configuration.logger)
        }
        if let s3SourceEndpoint {
            configuration.s3Sources = try Self.client(
                s3SourceEndpoint, region: s3SourceRegion, flag: "--s3-source-endpoint", credentials: "S3_SOURCE",
                timeout: configuration.limits.downloadTimeout, maxObjectSize: configuration.limits.maxSourceFileSize)
        }
        if let purgeKey {
            guard let key = URLSigner.bytes(hex: purgeKey), !key.isEmpty else {
                throw ValidationError("--purge-key must be non-empty hexadecimal")
            }
            configuration.purgeKey = key
        }
        configuration.peers = try peer.map { try Self.nodeURL($0, flag: "--peer") }
        configuration.selfURL = try selfURL.map { try Self.nodeURL($0, flag: "--self") }
        configuration.forwardsToOwner = peerForward
    }

    /// A node's URL: `http(s)://HOST[:PORT][/PATH]`.
    private static func nodeURL(_ text: String, flag: String) throws -> URL {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host?.isEmpty == false,
            url.query == nil
        else { throw ValidationError("\(flag) takes http(s)://HOST:PORT, not '\(text)'") }
        return url
    }

    /// An S3 client for `endpoint` with the credentials of `WEBIMAGE_<credentials>_ACCESS_KEY` and `_SECRET_KEY`.
    private static func client(
        _ endpoint: String?, region: String, flag: String, credentials: String, timeout: Duration,
        maxObjectSize: Int = 64 << 20
    ) throws -> S3Client {
        guard let url = endpoint.flatMap(URL.init(string:)), url.host != nil,
            ["http", "https"].contains(url.scheme ?? "")
        else { throw ValidationError("\(flag) takes http(s)://HOST[:PORT]") }
        guard let access = Env.string(credentials + "_ACCESS_KEY"), let secret = Env.string(credentials + "_SECRET_KEY")
        else {
            throw ValidationError(
                "\(flag) needs WEBIMAGE_\(credentials)_ACCESS_KEY and WEBIMAGE_\(credentials)_SECRET_KEY")
        }
        return S3Client(
            configuration: .init(
                endpoint: url, region: region, credentials: S3Credentials(accessKey: access, secretKey: secret),
                timeout: timeout, maxObjectSize: maxObjectSize))
    }
}
