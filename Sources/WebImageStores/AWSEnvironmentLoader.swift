import Foundation
import WebImage

/// imgproxy's loading of variables at start from AWS (its `env/aws.go`): a Secrets Manager secret
/// (`IMGPROXY_ENV_AWS_SECRET_ID`, `_SECRET_VERSION_ID`, `_SECRET_VERSION_STAGE`, `_SECRET_REGION`) whose string is
/// `KEY=value` lines, then the parameters under an SSM path (`IMGPROXY_ENV_AWS_SSM_PARAMETERS_PATH`,
/// `_SSM_PARAMETERS_REGION`), each parameter of type `text` a variable named by its name without the path, `/`
/// becoming `_`. Clients are made as the AWS SDKs make them (``S3Environment/resolve(_:region:defaultRegion:)``),
/// with imgproxy's default region `us-west-1`.
public struct AWSEnvironmentLoader: Sendable {
    /// The environment the settings and the AWS credentials are read from.
    public let environment: S3Environment
    /// How long each call may take; imgproxy's 30 s.
    public let timeout: Duration

    /// A loader reading `environment`.
    public init(environment: S3Environment = .process, timeout: Duration = .seconds(30)) {
        self.environment = environment
        self.timeout = timeout
    }

    /// The variables of the secret (when `IMGPROXY_ENV_AWS_SECRET_ID` is set), as `parse` reads the secret's string.
    /// - Throws: `WebImageError` (`.invalidArgument` for a configuration that cannot be resolved), or `parse`'s error.
    public func secretVariables(
        parse: (String) throws -> [(name: String, value: String)]
    ) async throws -> [(name: String, value: String)] {
        guard let id = environment.value("IMGPROXY_ENV_AWS_SECRET_ID") else { return [] }
        let resolution = try resolve(.secretsManager, region: environment.value("IMGPROXY_ENV_AWS_SECRET_REGION"))
        let sender = AWSRequestSender(resolution, timeout: timeout)
        let answer: Result<String?, WebImageError>
        do {
            answer = .success(
                try await SecretsManagerClient(sender: sender).secretString(
                    id, versionID: environment.value("IMGPROXY_ENV_AWS_SECRET_VERSION_ID"),
                    versionStage: environment.value("IMGPROXY_ENV_AWS_SECRET_VERSION_STAGE"),
                    credentials: resolution.credentials))
        } catch { answer = .failure(error) }
        try? await sender.shutdown()
        guard let text = try answer.get() else { return [] }
        return try parse(text)
    }

    /// The variables of the SSM parameters (when `IMGPROXY_ENV_AWS_SSM_PARAMETERS_PATH` is set).
    /// - Throws: `WebImageError`.
    public func parameterVariables() async throws(WebImageError) -> [(name: String, value: String)] {
        guard let path = environment.value("IMGPROXY_ENV_AWS_SSM_PARAMETERS_PATH") else { return [] }
        let resolution = try resolve(.ssm, region: environment.value("IMGPROXY_ENV_AWS_SSM_PARAMETERS_REGION"))
        let sender = AWSRequestSender(resolution, timeout: timeout)
        let answer: Result<[SSMClient.Parameter], WebImageError>
        do {
            answer = .success(
                try await SSMClient(sender: sender).parameters(under: path, credentials: resolution.credentials))
        } catch { answer = .failure(error) }
        try? await sender.shutdown()
        let parameters = try answer.get()
        return parameters.filter { $0.dataType == "text" }.map { parameter in
            var name = Substring(parameter.name)
            if name.hasPrefix(path) { name = name.dropFirst(path.count) }
            if name.hasPrefix("/") { name = name.dropFirst() }
            return (name.replacingOccurrences(of: "/", with: "_"), parameter.value)
        }
    }

    private func resolve(
        _ service: AWSService, region: String?
    ) throws(WebImageError) -> S3Environment.ServiceResolution {
        do { return try environment.resolve(service, region: region, defaultRegion: "us-west-1") } catch {
            throw WebImageError(.invalidArgument, "\(service.signingName): \(error)", underlying: error)
        }
    }
}
