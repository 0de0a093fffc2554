import Foundation
import WebImage

/// The developer tools at the end of azidentity's `DefaultAzureCredential`, tried when no managed identity gives a
/// token: the Azure CLI (`az account get-access-token --output json --resource RESOURCE`, its `accessToken` and
/// `expires_on`, else `expiresOn`) and the Azure Developer CLI (`azd auth token --output json --no-prompt --scope
/// SCOPE`, its `token` and `expiresOn`). Each is run as azidentity runs it: `/bin/sh -c` in `/bin`, with the server's
/// environment (so its `PATH` finds the tool), for at most 10 seconds. A tool that is not installed (the shell's 127)
/// or not signed in gives no token, and the next source is tried.
struct AzureDeveloperCLI: Sendable, CustomStringConvertible {
    enum Tool: Sendable {
        case azureCLI, azureDeveloperCLI
    }

    /// azidentity's time limit for each run.
    static let timeout = Duration.seconds(10)

    let tool: Tool
    /// The environment the tool runs with.
    let environment: [String: String]

    /// The command line of a token of `scope` (`https://storage.azure.com/.default`): constant text, never a value
    /// of a variable.
    var commandLine: String {
        switch tool {
        case .azureCLI:
            "az account get-access-token --output json --resource "
                + String(AzureCredentials.scope.dropLast("/.default".count))
        case .azureDeveloperCLI: "azd auth token --output json --no-prompt --scope " + AzureCredentials.scope
        }
    }

    var description: String {
        switch tool {
        case .azureCLI: "the Azure CLI"
        case .azureDeveloperCLI: "the Azure Developer CLI"
        }
    }

    /// A token of the storage scope and its lifetime.
    ///
    /// - Throws: `.connectionFailed` when the tool is missing or fails (naming the first line it wrote to standard
    ///   error, which never holds a token), `.timedOut`, `.invalidResponse` for output without a token.
    func token(now: Date = Date()) async throws(WebImageError) -> (String, Duration) {
        let command = CredentialCommand(
            executable: "/bin/sh", arguments: ["-c", commandLine], environment: environment, directory: "/bin")
        let output = try await command.run(timeout: Self.timeout, maxOutput: 1 << 20, name: "\(self)")
        guard output.status == 0 else {
            let reason = output.status == 127 ? "not found on the PATH" : output.reason("exit status \(output.status)")
            let error = CloudStoreError(.authenticationFailed, "\(self) gave no token: \(reason)")
            throw WebImageError(.connectionFailed, error.message, underlying: error)
        }
        guard let object = try? JSONSerialization.jsonObject(with: output.standardOutput) as? [String: Any],
            let token = object[tool == .azureCLI ? "accessToken" : "token"] as? String, !token.isEmpty,
            token.allSatisfy({ $0.isASCII && !$0.isWhitespace && !$0.isNewline }),
            let expiry = Self.expiry(object)
        else {
            let error = CloudStoreError(.authenticationFailed, "\(self) printed no token with its expiry")
            throw WebImageError(.invalidResponse, error.message, underlying: error)
        }
        let seconds = expiry.timeIntervalSince(now)
        return (token, seconds > 0 ? .seconds(min(seconds, 86_400)) : .seconds(0))
    }

    /// When the token expires: `expires_on` (seconds since 1970, Azure CLI 2.54 and later), else `expiresOn`, in
    /// RFC 3339 (the Azure Developer CLI, Cloud Shell) or as the Azure CLI writes it in local time
    /// (`2025-01-02 15:04:05.999999`).
    static func expiry(_ object: [String: Any]) -> Date? {
        if let seconds = (object["expires_on"] as? NSNumber)?.doubleValue
            ?? (object["expires_on"] as? String).flatMap { Double($0) }, seconds.isFinite
        {
            return Date(timeIntervalSince1970: seconds)
        }
        guard let text = object["expiresOn"] as? String else { return nil }
        let rfc3339 = ISO8601DateFormatter()
        if let date = rfc3339.date(from: text) { return date }
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = TimeZone.current
        for format in ["yyyy-MM-dd HH:mm:ss.SSSSSS", "yyyy-MM-dd HH:mm:ss"] {
            local.dateFormat = format
            if let date = local.date(from: text) { return date }
        }
        return nil
    }
}
