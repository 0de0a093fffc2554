import ArgumentParser
import Foundation
import Logging
import WebImageServer
import WebImageStores

/// `webimage serve`'s options for S3: the shared tier of a cluster, purging, peers, and `s3://` sources.
struct ClusterOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A shared cache tier in an S3-compatible store.", valueName: "s3://BUCKET/PREFIX"))
    var sharedStore: String?
    @Option(
        help: ArgumentHelp(
            "The shared store's S3 endpoint (else AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, the AWS profile's, AWS's).",
            valueName: "URL"))
    var sharedStoreEndpoint: String?
    @Option(help: "The shared store's signing region (else --s3-region).")
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
    @Flag(help: "Read s3://BUCKET/KEY sources, from the endpoint the AWS tools would use (IMGPROXY_USE_S3).")
    var useS3 = false
    @Option(
        help: ArgumentHelp(
            "Read s3://BUCKET/KEY sources from this S3 endpoint (IMGPROXY_S3_ENDPOINT with IMGPROXY_USE_S3).",
            valueName: "URL"))
    var s3SourceEndpoint: String?
    @Option(help: "The S3 source store's signing region (else --s3-region; IMGPROXY_S3_REGION).")
    var s3SourceRegion: String?
    @Option(help: "The S3 signing region (else AWS_REGION, AWS_DEFAULT_REGION, the AWS profile's, us-east-1).")
    var s3Region: String?
    @Option(
        help: ArgumentHelp(
            "Bucket in the path, in the host name, or virtual-hosted on AWS only (default: auto; the AWS profile's "
                + "s3 addressing_style; IMGPROXY_S3_ENDPOINT_USE_PATH_STYLE).",
            valueName: "path|virtual|auto"))
    var s3Addressing: String?
    @Option(
        help: ArgumentHelp(
            "Only these buckets are read as s3:// sources (IMGPROXY_S3_ALLOWED_BUCKETS).", valueName: "B1,B2"))
    var s3AllowedBuckets: String?
    @Option(
        help: ArgumentHelp(
            "These buckets are never read as s3:// sources (IMGPROXY_S3_DENIED_BUCKETS).", valueName: "B1,B2"))
    var s3DeniedBuckets: String?
    @Option(
        help: ArgumentHelp(
            "Read s3:// sources with the temporary credentials of this role, assumed through STS "
                + "(IMGPROXY_S3_ASSUME_ROLE_ARN).", valueName: "ARN"))
    var s3AssumeRoleArn: String?
    @Option(help: "The external id of --s3-assume-role-arn (IMGPROXY_S3_ASSUME_ROLE_EXTERNAL_ID).")
    var s3AssumeRoleExternalId: String?
    @Flag(
        help: ArgumentHelp(
            "Decrypt s3:// sources written by the AWS S3 Encryption Client, through KMS "
                + "(IMGPROXY_S3_USE_DECRYPTION_CLIENT)."))
    var s3UseDecryptionClient = false
    @Option(
        help: ArgumentHelp(
            "Bucket names of s3:// sources read through access points (IMGPROXY_S3_ACCESS_POINTS).",
            valueName: "NAME=ARN;NAME2=ARN2"))
    var s3AccessPoints: String?

    /// Applies these options to `configuration`. Credentials come from the environment and the AWS tools' shared
    /// files, never from flags (which `ps` shows): WEBIMAGE_S3_ACCESS_KEY / WEBIMAGE_S3_SECRET_KEY /
    /// WEBIMAGE_S3_SESSION_TOKEN for the shared tier, WEBIMAGE_S3_SOURCE_… for sources, then for either the AWS
    /// tools' chain (``S3Environment``): AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN, the profile
    /// (AWS_PROFILE) in the shared credentials file, then in the config file. With IMGPROXY_USE_S3 (or --use-s3) and
    /// no endpoint anywhere, sources are read from AWS's endpoint of the region.
    func apply(to configuration: inout ImageServerConfiguration) throws {
        let addressing = try s3Addressing.map { text in
            guard let addressing = S3Addressing(name: text) else {
                throw ValidationError("--s3-addressing: '\(text)' must be auto, path or virtual")
            }
            return addressing
        }
        let region = try Settings.s3Region.resolve(s3Region)
        // The clients are made last, when nothing can throw any more (a client must be shut down before it goes).
        var shared: (location: SharedStoreLocation, client: S3Client.Configuration)?
        var sources: S3Client.Configuration?
        var kms: URL?
        if let sharedStore = try Settings.sharedStore.resolve(sharedStore) {
            let location: SharedStoreLocation
            do { location = try SharedStoreLocation(sharedStore) } catch { throw ValidationError(error.message) }
            let timeout = try Settings.sharedStoreTimeout.resolve(sharedStoreTimeout) ?? 0.3
            guard timeout.isFinite, timeout > 0, timeout <= 60 else {
                throw ValidationError("--shared-store-timeout must be between 0 and 60 seconds")
            }
            let client = try Self.clientConfiguration(
                "shared store", endpoint: try Settings.sharedStoreEndpoint.resolve(sharedStoreEndpoint),
                flag: "--shared-store-endpoint",
                region: try Settings.sharedStoreRegion.resolve(sharedStoreRegion) ?? region,
                addressing: try addressing ?? Settings.s3Addressing.resolve(nil, imgproxy: false),
                credentials: .webimage("S3"), timeout: .milliseconds(Int64((timeout * 1000).rounded(.up))),
                logger: configuration.logger)
            shared = (location, client)
        }
        let useS3 = try Settings.useS3.resolve(switch: useS3)
        let sourceEndpoint = try Settings.s3SourceEndpoint.resolve(s3SourceEndpoint, imgproxy: useS3)
        if sourceEndpoint != nil || useS3 {
            let role = try Settings.s3AssumeRoleARN.resolve(s3AssumeRoleArn, imgproxy: useS3).map {
                (
                    arn: $0,
                    externalID: try Settings.s3AssumeRoleExternalID.resolve(s3AssumeRoleExternalId, imgproxy: useS3)
                )
            }
            let client = try Self.clientConfiguration(
                "S3 sources", endpoint: sourceEndpoint, flag: "--s3-source-endpoint",
                region: try Settings.s3SourceRegion.resolve(s3SourceRegion, imgproxy: useS3) ?? region,
                addressing: try addressing ?? Settings.s3Addressing.resolve(nil, imgproxy: useS3),
                credentials: .webimage("S3_SOURCE"), timeout: configuration.limits.downloadTimeout,
                maxObjectSize: configuration.limits.maxSourceFileSize, role: role, logger: configuration.logger)
            sources = client
            configuration.s3SourceBuckets = S3BucketPolicy(
                allowed: try Settings.s3AllowedBuckets.resolve(parsing: s3AllowedBuckets) ?? [],
                denied: try Settings.s3DeniedBuckets.resolve(parsing: s3DeniedBuckets) ?? [])
            configuration.s3SourceAccessPoints = try Self.accessPoints(
                try Settings.s3AccessPoints.resolve(parsing: s3AccessPoints, imgproxy: useS3) ?? [:])
            if try Settings.s3UseDecryptionClient.resolve(s3UseDecryptionClient ? true : nil, imgproxy: useS3) ?? false
            {
                kms = try Self.kms(region: client.region, logger: configuration.logger)
            }
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
        if let shared {
            configuration.sharedStore = SharedStore(
                location: shared.location, client: S3Client(configuration: shared.client), logger: configuration.logger)
        }
        if let sources {
            configuration.s3Sources = S3Client(configuration: sources)
            configuration.s3SourceDecryption = kms.map {
                S3DecryptionClient(
                    kms: KMSClient(
                        sender: AWSRequestSender(
                            endpoint: $0, region: sources.region, service: .kms, timeout: sources.timeout)))
            }
        }
    }

    /// A node's URL: `http(s)://HOST[:PORT][/PATH]`.
    private static func nodeURL(_ text: String, flag: String) throws -> URL {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host?.isEmpty == false,
            url.query == nil
        else { throw ValidationError("\(flag) takes http(s)://HOST:PORT, not '\(text)'") }
        return url
    }

    /// The configuration of an S3 client for `purpose` (`S3 sources`): `endpoint`, `region` and `addressing` when given, the rest and the
    /// credentials (`credentials` first) resolved as the AWS tools resolve them, logged at start with where each came
    /// from (the access key id, never the secret).
    private static func clientConfiguration(
        _ purpose: String, endpoint: String?, flag: String, region: String?, addressing: S3Addressing?,
        credentials: S3CredentialVariables, timeout: Duration, maxObjectSize: Int = 64 << 20,
        role: (arn: String, externalID: String?)? = nil, logger: Logger
    ) throws -> S3Client.Configuration {
        var explicit: URL?
        if let endpoint {
            guard let url = URL(string: endpoint), url.host?.isEmpty == false,
                ["http", "https"].contains(url.scheme ?? "")
            else { throw ValidationError("\(flag) takes http(s)://HOST[:PORT]") }
            explicit = url
        }
        let resolved: S3Environment.Resolution
        do {
            resolved = try S3Environment.process.resolve(
                .init(endpoint: explicit, region: region, addressing: addressing, credentialVariables: [credentials]))
        } catch { throw ValidationError("\(purpose): \(error)") }
        logger.info(
            "\(purpose)",
            metadata: [
                "endpoint": "\(resolved.endpoint)", "endpoint_from": "\(resolved.endpointSource)",
                "region": "\(resolved.region)", "addressing": "\(resolved.addressing)",
                "credentials": "\(resolved.credentialSource)", "access_key": "\(resolved.credentials.accessKey)",
            ])
        var configuration = resolved.configuration(timeout: timeout, maxObjectSize: maxObjectSize)
        if let role {
            configuration.assumeRole = try assumeRole(role, region: resolved.region, logger: logger)
        }
        return configuration
    }
}
