import ArgumentParser
import Foundation
import WebImage
import WebImageServer
import WebImageStores

/// imgproxy's remaining AWS settings: the S3 source client's assumed role, access points and decryption client, and
/// the variables loaded at start from Secrets Manager and SSM (its `env/aws.go`).
extension Settings {
    static let s3AssumeRoleARN = Setting<String>(
        "s3-assume-role-arn", .text, imgproxy: ["IMGPROXY_S3_ASSUME_ROLE_ARN"])
    static let s3AssumeRoleExternalID = Setting<String>(
        "s3-assume-role-external-id", .text, imgproxy: ["IMGPROXY_S3_ASSUME_ROLE_EXTERNAL_ID"])
    static let s3UseDecryptionClient = Setting<Bool>(
        "s3-use-decryption-client", .boolean, imgproxy: ["IMGPROXY_S3_USE_DECRYPTION_CLIENT"])
    static let s3AccessPoints = Setting<[String: String]>(
        "s3-access-points", .stringMap, imgproxy: ["IMGPROXY_S3_ACCESS_POINTS"])
    static let envAWSSecretID = Setting<String>(nil, .text, imgproxy: ["IMGPROXY_ENV_AWS_SECRET_ID"])
    static let envAWSSecretVersionID = Setting<String>(nil, .text, imgproxy: ["IMGPROXY_ENV_AWS_SECRET_VERSION_ID"])
    static let envAWSSecretVersionStage = Setting<String>(
        nil, .text, imgproxy: ["IMGPROXY_ENV_AWS_SECRET_VERSION_STAGE"])
    static let envAWSSecretRegion = Setting<String>(nil, .text, imgproxy: ["IMGPROXY_ENV_AWS_SECRET_REGION"])
    static let envAWSSSMParametersPath = Setting<String>(
        nil, .text, imgproxy: ["IMGPROXY_ENV_AWS_SSM_PARAMETERS_PATH"])
    static let envAWSSSMParametersRegion = Setting<String>(
        nil, .text, imgproxy: ["IMGPROXY_ENV_AWS_SSM_PARAMETERS_REGION"])

    /// These settings, for ``all``.
    static let aws: [any SettingVariables] = [
        s3AssumeRoleARN, s3AssumeRoleExternalID, s3UseDecryptionClient, s3AccessPoints, envAWSSecretID,
        envAWSSecretVersionID, envAWSSecretVersionStage, envAWSSecretRegion, envAWSSSMParametersPath,
        envAWSSSMParametersRegion,
    ]

    /// Sets the variables of the Secrets Manager secret, then of the SSM parameters, in the environment, over those
    /// already set, as imgproxy's `env.Load` does before its local file. Returns the number of variables set.
    ///
    /// - Throws: `ValidationError` (exit 64) for a configuration that cannot be resolved, a call that fails, a secret
    ///   that is not `KEY=value` lines, or a name that cannot be a variable's; never with a value in it.
    static func loadAWSEnvironment() async throws -> Int {
        let loader = AWSEnvironmentLoader()
        var count = 0
        func set(_ variables: [(name: String, value: String)], from source: String) throws {
            for (name, value) in variables {
                guard !name.isEmpty, !name.contains("="), !name.contains("\0"), setenv(name, value, 1) == 0 else {
                    throw ValidationError("\(source): cannot set the variable '\(name)'")
                }
                count += 1
            }
        }
        do {
            let secret = try await loader.secretVariables { text in
                try EnvironmentFile.parse(text, environment: ProcessInfo.processInfo.environment).map {
                    (name: $0.name, value: $0.value)
                }
            }
            try set(secret, from: "IMGPROXY_ENV_AWS_SECRET_ID")
        } catch let error as ValidationError {
            throw error
        } catch let error as EnvironmentFile.ParseError {
            throw ValidationError("IMGPROXY_ENV_AWS_SECRET_ID: the secret is not KEY=value lines (\(error.line))")
        } catch {
            throw ValidationError("can't retrieve config from AWS Secrets Manager: \(error)")
        }
        do {
            try set(try await loader.parameterVariables(), from: "IMGPROXY_ENV_AWS_SSM_PARAMETERS_PATH")
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("can't retrieve parameters from AWS SSM: \(error)")
        }
        return count
    }
}

extension ValueParser<[String: String]> {
    /// imgproxy's `name=value;name2=value2` (entries trimmed, empty ones skipped; the value may hold `=`).
    static var stringMap: Self {
        Self(expected: "name=value pairs separated by ;") { text in
            var map: [String: String] = [:]
            for entry in text.split(separator: ";") {
                let entry = entry.trimmingCharacters(in: .whitespaces)
                guard !entry.isEmpty else { continue }
                guard let equals = entry.firstIndex(of: "=") else { return nil }
                map[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
            }
            return map
        }
    }
}
