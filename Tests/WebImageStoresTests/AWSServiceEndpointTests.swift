import Foundation
import Testing

@testable import WebImageStores

/// The endpoints of STS, KMS, Secrets Manager and SSM, found as the AWS SDKs find them: the service's variable, the
/// shared `AWS_ENDPOINT_URL`, the service's block of the profile's `[services NAME]` section, the profile's own
/// `endpoint_url`, else AWS's regional endpoint.
@Suite struct AWSServiceEndpointTests {
    @Test func eachServiceHasItsVariableThenTheSharedOne() throws {
        let services: [(AWSService, String, String)] = [
            (.sts, "AWS_ENDPOINT_URL_STS", "https://sts.eu-west-1.amazonaws.com"),
            (.kms, "AWS_ENDPOINT_URL_KMS", "https://kms.eu-west-1.amazonaws.com"),
            (.secretsManager, "AWS_ENDPOINT_URL_SECRETS_MANAGER", "https://secretsmanager.eu-west-1.amazonaws.com"),
            (.ssm, "AWS_ENDPOINT_URL_SSM", "https://ssm.eu-west-1.amazonaws.com"),
        ]
        let hermetic = ["AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/a", "AWS_CONFIG_FILE": "/nonexistent/b"]
        for (service, variable, aws) in services {
            let none = try S3Environment(hermetic).endpoint(of: service, region: "eu-west-1")
            #expect(none.url.absoluteString == aws)
            let shared = try S3Environment(hermetic.merging(["AWS_ENDPOINT_URL": "http://127.0.0.1:1"]) { $1 })
                .endpoint(of: service, region: "eu-west-1")
            #expect(
                shared.url.absoluteString == "http://127.0.0.1:1" && shared.source == "environment AWS_ENDPOINT_URL")
            let own = try S3Environment(
                hermetic.merging(["AWS_ENDPOINT_URL": "http://127.0.0.1:1", variable: "http://127.0.0.1:2"]) { $1 }
            ).endpoint(of: service, region: "eu-west-1")
            #expect(own.url.absoluteString == "http://127.0.0.1:2" && own.source == "environment \(variable)")
            // S3's own variable is not another service's.
            let s3 = try S3Environment(hermetic.merging(["AWS_ENDPOINT_URL_S3": "http://127.0.0.1:3"]) { $1 })
                .endpoint(of: service, region: "eu-west-1")
            #expect(s3.url.absoluteString == aws)
        }
    }

    @Test func servicesSectionsAndRegionDefaults() throws {
        let directory = try LocalProcess.temporaryDirectory("aws-services")
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config")
        try Data(
            """
            [default]
            services = local
            aws_access_key_id = CFGKEY
            aws_secret_access_key = cfg-secret

            [services local]
            secrets_manager =
              endpoint_url = http://127.0.0.1:4
            """.utf8
        ).write(to: config)
        let environment = S3Environment([
            "AWS_CONFIG_FILE": config.path, "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/a",
        ])
        let resolved = try environment.resolve(.secretsManager, defaultRegion: "us-west-1")
        #expect(resolved.endpoint.absoluteString == "http://127.0.0.1:4")
        #expect(resolved.region == "us-west-1")
        #expect(resolved.credentials.accessKey == "CFGKEY")
        #expect(
            try environment.endpoint(of: .ssm, region: "us-west-1").url.absoluteString
                == "https://ssm.us-west-1.amazonaws.com")
        #expect(
            try environment.resolve(.ssm, region: "eu-north-1", defaultRegion: "us-west-1").region == "eu-north-1")
    }
}
