import Foundation

extension S3Environment {
    /// The settings of a client of another AWS service (``AWSService``), resolved as for S3.
    public struct ServiceResolution: Sendable, Hashable {
        /// The service.
        public var service: AWSService
        /// Where requests go.
        public var endpoint: URL
        /// `environment AWS_ENDPOINT_URL_STS`, `AWS's endpoint of the region`…
        public var endpointSource: String
        /// The signing region.
        public var region: String
        /// The credentials that sign.
        public var credentials: S3Credentials
        /// Where ``credentials`` came from.
        public var credentialSource: S3CredentialSource
    }

    /// The endpoint of `service` and where it came from, found as ``resolve(_:region:defaultRegion:)`` finds it, for
    /// a client that signs with credentials of its own (an S3 client's, for STS and KMS).
    /// - Throws: ``S3ConfigurationError`` naming the source that failed.
    public func endpoint(
        of service: AWSService, region: String
    ) throws(S3ConfigurationError) -> (url: URL, source: String) {
        var loaded: AWSProfile?
        func profile() throws(S3ConfigurationError) -> AWSProfile {
            if let loaded { return loaded }
            let read = try self.profile()
            loaded = read
            return read
        }
        let endpoint = try resolveEndpoint(nil, service: (service.id, service.configKey), profile: profile)
        return endpoint ?? (service.awsEndpoint(region), "AWS's endpoint of the region")
    }

    /// The endpoint, region and credentials of a client of `service`, as the AWS SDKs resolve them.
    ///
    /// - Endpoint: `AWS_ENDPOINT_URL_<ID>` (`AWS_ENDPOINT_URL_STS`, `_KMS`, `_SECRETS_MANAGER`, `_SSM`),
    ///   `AWS_ENDPOINT_URL`, the service's `endpoint_url` in the profile's `[services NAME]` section, the profile's
    ///   `endpoint_url` (skipped as for S3 with `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS`), else AWS's endpoint of the
    ///   region.
    /// - Region: `region` when given, `AWS_REGION`, `AWS_DEFAULT_REGION`, the profile's, else `defaultRegion`.
    /// - Credentials: `AWS_ACCESS_KEY_ID`…, then the profile, as ``resolve(_:)`` finds them.
    ///
    /// - Throws: ``S3ConfigurationError`` naming the source that failed.
    public func resolve(
        _ service: AWSService, region: String? = nil, defaultRegion: String = "us-east-1"
    ) throws(S3ConfigurationError) -> ServiceResolution {
        var loaded: AWSProfile?
        func profile() throws(S3ConfigurationError) -> AWSProfile {
            if let loaded { return loaded }
            let read = try self.profile()
            loaded = read
            return read
        }
        let (credentials, credentialSource) = try resolveCredentials([], profile: profile)
        let (region, _) = try resolveRegion(region, default: defaultRegion, profile: profile)
        let endpoint = try resolveEndpoint(nil, service: (service.id, service.configKey), profile: profile)
        return ServiceResolution(
            service: service, endpoint: endpoint?.url ?? service.awsEndpoint(region),
            endpointSource: endpoint?.source ?? "AWS's endpoint of the region", region: region,
            credentials: credentials, credentialSource: credentialSource)
    }
}
