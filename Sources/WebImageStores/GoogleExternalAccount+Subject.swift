import Foundation
import WebImage

extension GoogleExternalAccount {
    /// The largest subject token file, URL answer or executable output read.
    static let maxSubjectSize = 1 << 20

    /// The subject token of the source, read anew each time (a file or an URL's token is rotated).
    func subjectToken(http: StoreHTTPClient, timeout: Duration) async throws(WebImageError) -> String {
        switch source {
        case .file(let path, let format):
            guard let data = FileManager.default.contents(atPath: path), data.count <= Self.maxSubjectSize else {
                throw GoogleAWSSource.failure("the subject token file \(path) cannot be read")
            }
            return try Self.read(data, format: format, from: path)
        case .url(let url, let headers, let format):
            let response = try await http.send(
                .GET, url.absoluteString, headers: headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
                timeout: timeout,
                maxSize: Self.maxSubjectSize, operation: "subject token")
            guard response.status == 200 else {
                throw Self.refusal("the subject token URL \(url.host ?? "") gave no token", status: response.status)
            }
            return try Self.read(response.body, format: format, from: url.host ?? "the URL")
        case .executable(let command, let timeout, let outputFile):
            return try await executableToken(command: command, timeout: timeout, outputFile: outputFile)
        case .aws(let aws):
            return try await aws.subjectToken(
                audience: audience, environment: environment, http: http, timeout: timeout)
        }
    }

    /// The token of a file's or an URL's text.
    private static func read(_ data: Data, format: Format, from origin: String) throws(WebImageError) -> String {
        let token: String?
        switch format {
        case .text:
            token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        case .json(let field):
            token = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?[field] as? String
        }
        guard let token, !token.isEmpty else {
            throw GoogleAWSSource.failure("the subject token of \(origin) is empty or not where the format says")
        }
        return token
    }

    /// The token an executable prints (or left in its output file, while it has not expired), run as Google's
    /// library runs it: only with `GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES=1`, with the server's environment and
    /// `GOOGLE_EXTERNAL_ACCOUNT_AUDIENCE`, `…_TOKEN_TYPE`, `…_INTERACTIVE=0`, `…_IMPERSONATED_EMAIL` and
    /// `…_OUTPUT_FILE`.
    private func executableToken(
        command: [String], timeout: Duration, outputFile: String?
    ) async throws(WebImageError) -> String {
        guard environment["GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES"] == "1" else {
            throw GoogleAWSSource.failure(
                "executable subject tokens are not allowed: set GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES=1")
        }
        if let outputFile, let data = FileManager.default.contents(atPath: outputFile),
            data.count <= Self.maxSubjectSize, let token = try? Self.executableResponse(data, needsExpiry: true)
        {
            return token
        }
        var variables = environment
        variables["GOOGLE_EXTERNAL_ACCOUNT_AUDIENCE"] = audience
        variables["GOOGLE_EXTERNAL_ACCOUNT_TOKEN_TYPE"] = subjectTokenType
        variables["GOOGLE_EXTERNAL_ACCOUNT_INTERACTIVE"] = "0"
        variables["GOOGLE_EXTERNAL_ACCOUNT_IMPERSONATED_EMAIL"] = impersonatedEmail
        variables["GOOGLE_EXTERNAL_ACCOUNT_OUTPUT_FILE"] = outputFile
        let run = CredentialCommand(
            executable: command[0], arguments: Array(command.dropFirst()), environment: variables, directory: nil)
        let output = try await run.run(timeout: timeout, maxOutput: Self.maxSubjectSize, name: "the executable")
        guard output.status == 0 else {
            throw GoogleAWSSource.failure("the executable failed with exit status \(output.status)")
        }
        return try Self.executableResponse(output.standardOutput, needsExpiry: outputFile != nil)
    }

    /// The token of an executable's JSON response (version 1): `id_token` for a JWT or OIDC token, `saml_response`
    /// for SAML, refused when `success` is false or `expiration_time` (needed with an output file) has passed.
    static func executableResponse(
        _ data: Data, needsExpiry: Bool, now: Date = Date()
    ) throws(WebImageError) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw GoogleAWSSource.failure("the executable's response is not a JSON object")
        }
        guard (object["version"] as? NSNumber)?.intValue == 1 else {
            throw GoogleAWSSource.failure("the executable's response version must be 1")
        }
        guard let success = object["success"] as? Bool else {
            throw GoogleAWSSource.failure("the executable's response has no success")
        }
        guard success else {
            let code = (object["code"] as? String).map { String($0.prefix(100)) } ?? "?"
            let message = (object["message"] as? String).map { String($0.prefix(200)) } ?? "?"
            throw GoogleAWSSource.failure("the executable failed: code \(code), message \(message)")
        }
        let expiry = (object["expiration_time"] as? NSNumber)?.doubleValue
        if let expiry, expiry <= now.timeIntervalSince1970 {
            throw GoogleAWSSource.failure("the executable's token has expired")
        }
        if needsExpiry, expiry == nil {
            throw GoogleAWSSource.failure("the executable's response has no expiration_time")
        }
        let field: String
        switch object["token_type"] as? String {
        case "urn:ietf:params:oauth:token-type:jwt", "urn:ietf:params:oauth:token-type:id_token": field = "id_token"
        case "urn:ietf:params:oauth:token-type:saml2": field = "saml_response"
        default: throw GoogleAWSSource.failure("the executable's token_type is not a JWT, an ID token or SAML")
        }
        guard let token = object[field] as? String, !token.isEmpty else {
            throw GoogleAWSSource.failure("the executable's response has no \(field)")
        }
        return token
    }
}
