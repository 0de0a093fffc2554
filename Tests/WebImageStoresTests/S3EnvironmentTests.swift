import Foundation
import Testing

@testable import WebImageStores

/// The AWS tools' chain of credentials, region, endpoint and addressing, from explicit environments and files in a
/// temporary directory (never the real `~/.aws`).
@Suite struct S3EnvironmentTests {
    /// A temporary home with `.aws/credentials` and `.aws/config` of the given texts (`nil`: no file).
    private final class Home {
        let directory: URL
        var path: String { directory.path }
        var credentials: String { directory.appendingPathComponent(".aws/credentials").path }
        var config: String { directory.appendingPathComponent(".aws/config").path }

        init(credentials: String? = nil, config: String? = nil) throws {
            directory = try LocalProcess.temporaryDirectory("aws-home")
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(".aws"), withIntermediateDirectories: true)
            if let credentials { try Data(credentials.utf8).write(to: URL(fileURLWithPath: self.credentials)) }
            if let config { try Data(config.utf8).write(to: URL(fileURLWithPath: self.config)) }
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        func environment(_ variables: [String: String] = [:]) -> S3Environment {
            S3Environment(["HOME": path].merging(variables) { $1 })
        }
    }

    private static let credentialsFile = """
        [default]
        aws_access_key_id = FILEDEFAULT
        aws_secret_access_key = file-default-secret

        [dev]
        aws_access_key_id = FILEDEV
        aws_secret_access_key = file-dev-secret
        aws_session_token = file-dev-token
        region = eu-central-1
        """

    private static let configFile = """
        [default]
        region = us-west-2

        [profile dev]
        region = ap-south-1
        endpoint_url = http://127.0.0.1:9000
        s3 =
          addressing_style = virtual

        [profile cfg]
        aws_access_key_id = CONFIGCFG
        aws_secret_access_key = config-cfg-secret
        services = local

        [services local]
        s3 =
          endpoint_url = http://localhost:8333
        """

    @Test func environmentVariablesComeFirstThenTheCallersOwn() throws {
        let home = try Home(credentials: Self.credentialsFile, config: Self.configFile)
        let aws = try home.environment([
            "AWS_ACCESS_KEY_ID": "ENVKEY", "AWS_SECRET_ACCESS_KEY": "env-secret", "AWS_SESSION_TOKEN": "env-token",
        ]).resolve()
        #expect(
            aws.credentials == S3Credentials(accessKey: "ENVKEY", secretKey: "env-secret", sessionToken: "env-token"))
        #expect(aws.credentialSource == .environment("AWS_ACCESS_KEY_ID"))
        #expect(aws.credentialSource.description == "environment AWS_ACCESS_KEY_ID")

        let own = try home.environment([
            "AWS_ACCESS_KEY_ID": "ENVKEY", "AWS_SECRET_ACCESS_KEY": "env-secret",
            "WEBIMAGE_S3_ACCESS_KEY": "OWNKEY", "WEBIMAGE_S3_SECRET_KEY": "own-secret",
        ]).resolve(.init(credentialVariables: [.webimage("S3")]))
        #expect(own.credentials == S3Credentials(accessKey: "OWNKEY", secretKey: "own-secret"))
        #expect(own.credentialSource == .environment("WEBIMAGE_S3_ACCESS_KEY"))
        // AWS_PROFILE does not hide the environment's keys (only the CLI's --profile would).
        let profiled = try home.environment([
            "AWS_ACCESS_KEY_ID": "ENVKEY", "AWS_SECRET_ACCESS_KEY": "env-secret", "AWS_PROFILE": "dev",
        ]).resolve()
        #expect(profiled.credentials.accessKey == "ENVKEY")
        #expect(profiled.region == "eu-central-1")
    }

    @Test func theProfileIsReadFromTheCredentialsFileThenTheConfigFile() throws {
        let home = try Home(credentials: Self.credentialsFile, config: Self.configFile)
        let standard = try home.environment().resolve()
        #expect(standard.credentials == S3Credentials(accessKey: "FILEDEFAULT", secretKey: "file-default-secret"))
        #expect(standard.credentialSource == .credentialsFile(profile: "default", path: home.credentials))
        #expect(standard.region == "us-west-2")
        #expect(standard.regionSource == "profile 'default' in \(home.config)")

        // Keys, token and region from the credentials file, the endpoint and addressing from the config file.
        let dev = try home.environment(["AWS_PROFILE": "dev"]).resolve()
        #expect(
            dev.credentials
                == S3Credentials(accessKey: "FILEDEV", secretKey: "file-dev-secret", sessionToken: "file-dev-token"))
        #expect(dev.credentialSource.description == "profile 'dev' in \(home.credentials)")
        #expect(dev.region == "eu-central-1")
        #expect(dev.endpoint == URL(string: "http://127.0.0.1:9000"))
        #expect(dev.addressing == .virtual)

        // Keys in the config file only; the endpoint from its [services] section.
        let cfg = try home.environment(["AWS_PROFILE": "cfg"]).resolve()
        #expect(cfg.credentials == S3Credentials(accessKey: "CONFIGCFG", secretKey: "config-cfg-secret"))
        #expect(cfg.credentialSource == .configFile(profile: "cfg", path: home.config))
        #expect(cfg.endpoint == URL(string: "http://localhost:8333"))
        #expect(cfg.endpointSource == "[services local] in \(home.config)")
        #expect(cfg.addressing == .auto)
        #expect(cfg.region == "us-east-1")
    }

    @Test func filesNamedByTheEnvironmentAndTildeExpanded() throws {
        let home = try Home()
        let elsewhere = home.directory.appendingPathComponent("creds.ini")
        try Data("[ci]\naws_access_key_id = CI\naws_secret_access_key = ci-secret\n".utf8).write(to: elsewhere)
        let environment = home.environment([
            "AWS_SHARED_CREDENTIALS_FILE": "~/creds.ini", "AWS_CONFIG_FILE": "~/none", "AWS_PROFILE": "ci",
        ])
        #expect(environment.credentialsPath == elsewhere.path)
        let resolved = try environment.resolve()
        #expect(resolved.credentialSource == .credentialsFile(profile: "ci", path: elsewhere.path))
        // Without HOME there are no default files.
        #expect(S3Environment([:]).credentialsPath == nil)
        #expect(
            throws: S3ConfigurationError.noCredentials(tried: [
                "environment AWS_ACCESS_KEY_ID"
            ])
        ) { try S3Environment([:]).resolve() }
    }

    @Test func missingProfilesAndCredentialsAreTypedErrorsNamingTheSources() throws {
        let home = try Home(credentials: Self.credentialsFile, config: Self.configFile)
        #expect(
            throws: S3ConfigurationError.profileNotFound(profile: "prod", files: [home.credentials, home.config])
        ) { try home.environment(["AWS_PROFILE": "prod"]).resolve() }
        let empty = try Home()
        let none = #expect(throws: S3ConfigurationError.self) {
            try empty.environment().resolve(.init(credentialVariables: [.webimage("S3_SOURCE")]))
        }
        #expect(
            none
                == .noCredentials(tried: [
                    "environment WEBIMAGE_S3_SOURCE_ACCESS_KEY", "environment AWS_ACCESS_KEY_ID",
                    "profile 'default' in \(empty.credentials)", "profile 'default' in \(empty.config)",
                ]))
        #expect("\(none.map { "\($0)" } ?? "")".contains("instance metadata, containers and SSO are not consulted"))
        #expect(
            throws: S3ConfigurationError.incompleteCredentials(
                source: "environment AWS_ACCESS_KEY_ID", missing: "AWS_SECRET_ACCESS_KEY")
        ) { try empty.environment(["AWS_ACCESS_KEY_ID": "ONLYKEY"]).resolve() }
        let half = try Home(credentials: "[default]\naws_access_key_id = HALF\naws_session_token = secret-token\n")
        let partial = #expect(throws: S3ConfigurationError.self) { try half.environment().resolve() }
        #expect(
            partial
                == .incompleteCredentials(
                    source: "profile 'default' in \(half.credentials)", missing: "aws_secret_access_key"))
        #expect(!"\(partial.map { "\($0)" } ?? "")".contains("secret-token"))
    }

    @Test func waysTheAWSToolsWouldTakeInsteadAreRefused() throws {
        let role = try Home(config: "[profile r]\nrole_arn = arn:aws:iam::1:role/x\nsource_profile = default\n")
        #expect(
            throws: S3ConfigurationError.unsupported(
                source: "profile 'r' in \(role.config)", setting: "role_arn (STS AssumeRole)")
        ) { try role.environment(["AWS_PROFILE": "r"]).resolve() }
        let sso = try Home(config: "[default]\nsso_session = corp\n")
        #expect(throws: S3ConfigurationError.self) { try sso.environment().resolve() }
        // credential_process comes after the credentials file's keys and before the config file's.
        let process = try Home(
            credentials: "[p]\naws_access_key_id = STATIC\naws_secret_access_key = static-secret\n",
            config: "[profile p]\ncredential_process = /bin/echo\n[profile q]\ncredential_process = /bin/echo\n"
                + "aws_access_key_id = CFG\naws_secret_access_key = cfg-secret\n")
        #expect(try process.environment(["AWS_PROFILE": "p"]).resolve().credentials.accessKey == "STATIC")
        #expect(
            throws: S3ConfigurationError.unsupported(
                source: "profile 'q' in \(process.config)", setting: "credential_process")
        ) { try process.environment(["AWS_PROFILE": "q"]).resolve() }
        #expect(throws: S3ConfigurationError.self) {
            try Home().environment([
                "AWS_WEB_IDENTITY_TOKEN_FILE": "/var/run/token", "AWS_ROLE_ARN": "arn:aws:iam::1:role/x",
            ]).resolve()
        }
    }

    @Test func regionOrder() throws {
        let home = try Home(credentials: Self.credentialsFile, config: Self.configFile)
        let all = ["AWS_REGION": "r-env", "AWS_DEFAULT_REGION": "r-default", "AWS_PROFILE": "dev"]
        #expect(try home.environment(all).resolve(.init(region: "r-flag")).region == "r-flag")
        #expect(try home.environment(all).resolve().region == "r-env")
        #expect(try home.environment(all.filter { $0.key != "AWS_REGION" }).resolve().region == "r-default")
        #expect(try home.environment(["AWS_PROFILE": "dev"]).resolve().region == "eu-central-1")
        let plain = try Home(credentials: "[default]\naws_access_key_id = A\naws_secret_access_key = B\n")
        #expect(try plain.environment().resolve().region == "us-east-1")
        #expect(try plain.environment().resolve().endpoint == URL(string: "https://s3.us-east-1.amazonaws.com"))
        #expect(S3Environment.awsEndpoint("cn-north-1") == URL(string: "https://s3.cn-north-1.amazonaws.com.cn"))
    }

    @Test func endpointOrder() throws {
        let home = try Home(credentials: Self.credentialsFile, config: Self.configFile)
        let all = [
            "AWS_ENDPOINT_URL_S3": "http://s3-specific:1", "AWS_ENDPOINT_URL": "http://global:2", "AWS_PROFILE": "cfg",
        ]
        let flag = try home.environment(all).resolve(.init(endpoint: URL(string: "http://flag:3")))
        #expect(flag.endpoint == URL(string: "http://flag:3"))
        #expect(flag.endpointSource == "configuration")
        let specific = try home.environment(all).resolve()
        #expect(specific.endpoint == URL(string: "http://s3-specific:1"))
        #expect(specific.endpointSource == "environment AWS_ENDPOINT_URL_S3")
        #expect(
            try home.environment(all.filter { $0.key != "AWS_ENDPOINT_URL_S3" }).resolve().endpoint
                == URL(string: "http://global:2"))
        // The [services] section's s3 endpoint wins over the profile's own endpoint_url.
        let both = try Home(
            config: "[default]\naws_access_key_id = A\naws_secret_access_key = B\nendpoint_url = http://global:4\n"
                + "services = s\n[services s]\ns3 =\n  endpoint_url = http://service:5\n")
        #expect(try both.environment().resolve().endpoint == URL(string: "http://service:5"))
        #expect(
            try both.environment(["AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true", "AWS_ENDPOINT_URL": "http://x:1"])
                .resolve().endpoint == URL(string: "https://s3.us-east-1.amazonaws.com"))
        #expect(
            throws: S3ConfigurationError.invalidValue(
                source: "environment AWS_ENDPOINT_URL_S3", reason: "'ftp://x' is not an http(s)://HOST[:PORT] URL")
        ) { try home.environment(["AWS_ENDPOINT_URL_S3": "ftp://x"]).resolve() }
        let dangling = try Home(
            config: "[default]\naws_access_key_id = A\naws_secret_access_key = B\nservices = gone\n")
        #expect(throws: S3ConfigurationError.self) { try dangling.environment().resolve() }
    }

    @Test func addressingAndLazyFiles() throws {
        let home = try Home(config: "[default]\ns3 =\n  addressing_style = sideways\n")
        let environment = home.environment(["AWS_ACCESS_KEY_ID": "A", "AWS_SECRET_ACCESS_KEY": "B"])
        #expect(
            throws: S3ConfigurationError.invalidValue(
                source: "profile 'default' in \(home.config)",
                reason: "addressing_style = sideways: must be auto, path or virtual")
        ) { try environment.resolve(.init(endpoint: URL(string: "http://h:1"), region: "r")) }
        let explicit = try environment.resolve(
            .init(endpoint: URL(string: "http://h:1"), region: "r", addressing: .path))
        #expect(explicit.addressing == .path)
        // Nothing is left to the files, so a malformed one is not read, whatever AWS_PROFILE says.
        let broken = try Home(config: "this is not ini\n")
        let resolved = try broken.environment([
            "AWS_ACCESS_KEY_ID": "A", "AWS_SECRET_ACCESS_KEY": "B", "AWS_PROFILE": "absent",
        ]).resolve(.init(endpoint: URL(string: "http://h:1"), region: "r", addressing: .path))
        #expect(resolved.credentials.accessKey == "A")
        #expect(
            throws: S3ConfigurationError.malformedFile(
                path: broken.config, line: 1, reason: "an option before any [section]")
        ) { try broken.environment().resolve() }
    }

    @Test func descriptionsNeverShowSecretsOrTokens() throws {
        let credentials = S3Credentials(accessKey: "AK", secretKey: "very-secret", sessionToken: "very-token")
        #expect("\(credentials)" == "S3Credentials(accessKey: AK, secretKey: <redacted>, sessionToken: <redacted>)")
        let refusal = S3StoreError(
            status: 403, code: "SignatureDoesNotMatch", operation: "GET", key: "a.jpg",
            credentialSource: .credentialsFile(profile: "x", path: "/h/.aws/credentials"), accessKey: "AK")
        #expect(
            refusal.description
                == "S3 GET a.jpg answered 403 SignatureDoesNotMatch with the credentials from profile 'x' in "
                + "/h/.aws/credentials (access key AK)")
        #expect(S3StoreError.code(in: Data("<Error><Code>ExpiredToken</Code></Error>".utf8)) == "ExpiredToken")
        #expect(S3StoreError.code(in: Data("<Code>a b</Code>".utf8)) == nil)
    }
}
