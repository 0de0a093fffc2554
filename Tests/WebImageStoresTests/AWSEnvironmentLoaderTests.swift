import Foundation
import Testing
import WebImage

@testable import WebImageStores

/// `IMGPROXY_ENV_AWS_*`: a Secrets Manager secret's `KEY=value` lines and the `text` parameters under an SSM path,
/// read from the fake services as imgproxy's `env/aws.go` reads them, with the endpoints, region and keys found as
/// the AWS SDKs find them.
@Suite struct AWSEnvironmentLoaderTests {
    private static let keys = ["AWS_ACCESS_KEY_ID": "AKIALOADER", "AWS_SECRET_ACCESS_KEY": "loader-secret"]

    private static func environment(_ fake: FakeAWS, _ extra: [String: String]) -> S3Environment {
        S3Environment(
            keys.merging(
                [
                    "AWS_ENDPOINT_URL_SECRETS_MANAGER": fake.endpoint.absoluteString,
                    "AWS_ENDPOINT_URL_SSM": fake.endpoint.absoluteString,
                    "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/a", "AWS_CONFIG_FILE": "/nonexistent/b",
                ].merging(extra) { $1 }
            ) { $1 })
    }

    private static func lines(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "\n").map {
            let parts = $0.split(separator: "=", maxSplits: 1).map(String.init)
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
    }

    @Test func secretsAreReadByIdVersionAndStage() async throws {
        let fake = try await FakeAWS.start(
            .init(
                secrets: ["AKIALOADER": "loader-secret"],
                secretStrings: [
                    "imgproxy": "IMGPROXY_TTL=60\nIMGPROXY_KEY=abc", "imgproxy#v1": "IMGPROXY_TTL=1",
                    "imgproxy@AWSPREVIOUS": "IMGPROXY_TTL=2",
                ]))
        func variables(_ extra: [String: String]) async throws -> [String] {
            try await AWSEnvironmentLoader(environment: Self.environment(fake, extra)).secretVariables(
                parse: Self.lines
            ).map { "\($0.name)=\($0.value)" }
        }
        #expect(try await variables([:]).isEmpty)
        #expect(
            try await variables(["IMGPROXY_ENV_AWS_SECRET_ID": "imgproxy"]) == ["IMGPROXY_TTL=60", "IMGPROXY_KEY=abc"])
        // The version id wins over the stage, as in imgproxy.
        #expect(
            try await variables([
                "IMGPROXY_ENV_AWS_SECRET_ID": "imgproxy", "IMGPROXY_ENV_AWS_SECRET_VERSION_ID": "v1",
                "IMGPROXY_ENV_AWS_SECRET_VERSION_STAGE": "AWSPREVIOUS",
            ]) == ["IMGPROXY_TTL=1"])
        #expect(
            try await variables([
                "IMGPROXY_ENV_AWS_SECRET_ID": "imgproxy", "IMGPROXY_ENV_AWS_SECRET_VERSION_STAGE": "AWSPREVIOUS",
            ]) == ["IMGPROXY_TTL=2"])
        // Region: imgproxy's default us-west-1, else the environment's, else _SECRET_REGION.
        let regions = fake.calls.map(\.region)
        #expect(regions == ["us-west-1", "us-west-1", "us-west-1"])
        _ = try await variables(["IMGPROXY_ENV_AWS_SECRET_ID": "imgproxy", "AWS_REGION": "eu-west-1"])
        _ = try await variables([
            "IMGPROXY_ENV_AWS_SECRET_ID": "imgproxy", "AWS_REGION": "eu-west-1",
            "IMGPROXY_ENV_AWS_SECRET_REGION": "ap-south-1",
        ])
        #expect(fake.calls.suffix(2).map(\.region) == ["eu-west-1", "ap-south-1"])
        #expect(fake.calls.allSatisfy { $0.service == "secretsmanager" && $0.operation == "GetSecretValue" })
        // A secret that does not exist: Secrets Manager's error, without the secret key.
        do {
            _ = try await variables(["IMGPROXY_ENV_AWS_SECRET_ID": "missing"])
            Issue.record("expected ResourceNotFoundException")
        } catch {
            #expect("\(error)".contains("ResourceNotFoundException"), "\(error)")
            #expect(!"\(error)".contains("loader-secret"))
        }
        await fake.stop()
    }

    @Test func parametersUnderAPathOverEveryPage() async throws {
        let fake = try await FakeAWS.start(
            .init(
                secrets: ["AKIALOADER": "loader-secret"],
                parameters: [
                    ("/imgproxy/prod/IMGPROXY_TTL", "90", "text"), ("/imgproxy/prod/IMGPROXY_KEY", "k", "text"),
                    ("/imgproxy/prod/AMI", "ami-1", "aws:ec2:image"), ("/imgproxy/prod/IMGPROXY_SALT", "s", "text"),
                    ("/imgproxy/prod/NESTED/NAME", "n", "text"), ("/other/IMGPROXY_TTL", "1", "text"),
                ]))
        let loader = AWSEnvironmentLoader(
            environment: Self.environment(
                fake,
                [
                    "IMGPROXY_ENV_AWS_SSM_PARAMETERS_PATH": "/imgproxy/prod",
                    "IMGPROXY_ENV_AWS_SSM_PARAMETERS_REGION": "eu-north-1",
                ]))
        let variables = try await loader.parameterVariables().map { "\($0.name)=\($0.value)" }
        #expect(variables == ["IMGPROXY_TTL=90", "IMGPROXY_KEY=k", "IMGPROXY_SALT=s", "NESTED_NAME=n"])
        let calls = fake.calls
        #expect(calls.count == 3)
        #expect(calls.allSatisfy { $0.operation == "GetParametersByPath" && $0.service == "ssm" })
        #expect(calls.allSatisfy { $0.region == "eu-north-1" && $0.parameters["WithDecryption"] == "true" })
        #expect(calls.map { $0.parameters["NextToken"] } == [nil, "2", "4"])
        #expect(calls.allSatisfy { $0.parameters["Recursive"] == nil })
        await fake.stop()
    }
}
