import Foundation
import WebImage

/// Where an Azure Blob Storage client's Microsoft Entra ID tokens come from, as azidentity's
/// `DefaultAzureCredential` finds them (imgproxy's Azure client without `IMGPROXY_ABS_KEY`): a service principal's
/// secret or certificate, a workload identity's federated token, a managed identity (App Service's endpoint, else
/// the instance metadata service, IMDS), else the developer tools signed in where the server runs (the Azure CLI,
/// then the Azure Developer CLI). Tokens are of the scope `https://storage.azure.com/.default`.
public struct AzureCredentials: Sendable, CustomStringConvertible {
    enum Source: Sendable {
        case clientSecret(tenant: String, clientID: String, secret: String, authority: URL)
        case clientCertificate(tenant: String, clientID: String, certificate: AzureClientCertificate, authority: URL)
        case workloadIdentity(tenant: String, clientID: String, tokenFile: String, authority: URL)
        case appService(endpoint: URL, header: String, clientID: String?)
        case instanceMetadata(endpoint: URL, clientID: String?)
        case developerTool(AzureDeveloperCLI)
    }

    /// Microsoft Entra ID's authority when `AZURE_AUTHORITY_HOST` names none.
    public static let defaultAuthorityHost = URL(string: "https://login.microsoftonline.com/")!
    /// The instance metadata service's token endpoint, as azidentity's.
    public static let defaultInstanceMetadataEndpoint = URL(
        string: "http://169.254.169.254/metadata/identity/oauth2/token")!
    /// The scope of the tokens asked for.
    static let scope = "https://storage.azure.com/.default"

    let source: Source
    /// The developer tools tried, in order, when `source` gives no token.
    let fallbacks: [AzureDeveloperCLI]
    /// Which of `source` (0) and `fallbacks` (1...) gave a token, once one did: azidentity's chain keeps asking the
    /// credential that gave one.
    let chosen: Locked<Int?>

    init(source: Source, fallbacks: [AzureDeveloperCLI] = []) {
        self.source = source
        self.fallbacks = fallbacks
        chosen = Locked(nil)
    }

    /// The credentials azidentity's `DefaultAzureCredential` would use with `environment`, in its order:
    /// `AZURE_TENANT_ID` and `AZURE_CLIENT_ID` with `AZURE_CLIENT_SECRET`, else with `AZURE_CLIENT_CERTIFICATE_PATH`
    /// (a PEM file with the certificate and its unencrypted RSA key; its certificates sent with
    /// `AZURE_CLIENT_CERTIFICATE_CHAIN`); else a workload identity
    /// (`AZURE_FEDERATED_TOKEN_FILE` with the tenant and client ids); else App Service's managed identity
    /// (`IDENTITY_ENDPOINT` and `IDENTITY_HEADER`), else IMDS at `imdsEndpoint`, for the user-assigned identity
    /// `AZURE_CLIENT_ID` when set, each followed by the Azure CLI and the Azure Developer CLI when it gives no token.
    /// `AZURE_TOKEN_CREDENTIALS` narrows the chain as azidentity's: `prod` (no developer tools), `dev` (the
    /// developer tools alone), or one credential's name (`EnvironmentCredential`, `WorkloadIdentityCredential`,
    /// `ManagedIdentityCredential`, `AzureCLICredential`, `AzureDeveloperCLICredential`). Tokens are asked of
    /// `AZURE_AUTHORITY_HOST` (default ``defaultAuthorityHost``). Returns them with where they were found.
    ///
    /// - Throws: ``CloudStoreError/Code/invalidSetting`` for a tenant id other than letters, digits, `-` and `.`, an
    ///   authority or an endpoint that is not `http(s)`, an `AZURE_TOKEN_CREDENTIALS` azidentity does not know or
    ///   whose credential is not configured; ``CloudStoreError/Code/invalidKey`` for a certificate file that cannot
    ///   be used.
    public static func defaultChain(
        environment: [String: String], imdsEndpoint: URL = AzureCredentials.defaultInstanceMetadataEndpoint
    ) throws(CloudStoreError) -> (credentials: AzureCredentials, origin: String) {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let selection = try Selection(value("AZURE_TOKEN_CREDENTIALS"))
        let clientID = value("AZURE_CLIENT_ID")
        let authority = try url(
            value("AZURE_AUTHORITY_HOST") ?? defaultAuthorityHost.absoluteString, "AZURE_AUTHORITY_HOST")
        let tools = [AzureDeveloperCLI.Tool.azureCLI, .azureDeveloperCLI].filter { selection.allows($0) }
            .map { AzureDeveloperCLI(tool: $0, environment: environment) }
        if let tenant = value("AZURE_TENANT_ID"), let clientID {
            try check(tenant: tenant)
            if selection.allows(.environment), let secret = value("AZURE_CLIENT_SECRET") {
                return (
                    AzureCredentials(
                        source: .clientSecret(tenant: tenant, clientID: clientID, secret: secret, authority: authority)),
                    "AZURE_CLIENT_SECRET"
                )
            }
            if selection.allows(.environment), let path = value("AZURE_CLIENT_CERTIFICATE_PATH") {
                let chain = ["1", "true"].contains(value("AZURE_CLIENT_CERTIFICATE_CHAIN")?.lowercased() ?? "")
                let certificate = try AzureClientCertificate(path: path, sendsChain: chain)
                return (
                    AzureCredentials(
                        source: .clientCertificate(
                            tenant: tenant, clientID: clientID, certificate: certificate, authority: authority)),
                    "AZURE_CLIENT_CERTIFICATE_PATH"
                )
            }
            if selection.allows(.workloadIdentity), let file = value("AZURE_FEDERATED_TOKEN_FILE") {
                return (
                    AzureCredentials(
                        source: .workloadIdentity(
                            tenant: tenant, clientID: clientID, tokenFile: file, authority: authority)),
                    "AZURE_FEDERATED_TOKEN_FILE"
                )
            }
        }
        if selection.allows(.managedIdentity) {
            if let endpoint = value("IDENTITY_ENDPOINT"), let header = value("IDENTITY_HEADER") {
                return (
                    AzureCredentials(
                        source: .appService(
                            endpoint: try url(endpoint, "IDENTITY_ENDPOINT"), header: header, clientID: clientID),
                        fallbacks: tools),
                    "IDENTITY_ENDPOINT"
                )
            }
            return (
                AzureCredentials(
                    source: .instanceMetadata(endpoint: imdsEndpoint, clientID: clientID), fallbacks: tools),
                "the instance metadata service"
            )
        }
        guard let first = tools.first else {
            throw CloudStoreError(
                .invalidSetting, "AZURE_TOKEN_CREDENTIALS names a credential whose variables are not set")
        }
        return (
            AzureCredentials(source: .developerTool(first), fallbacks: Array(tools.dropFirst())),
            "AZURE_TOKEN_CREDENTIALS"
        )
    }

    /// Whether the tokens come from IMDS.
    public var isInstanceMetadata: Bool {
        if case .instanceMetadata = source { return true }
        return false
    }

    /// Whether the tokens come from a source that may not be there (IMDS, a developer tool), which a server asks
    /// once at start to find out whether there is one.
    public var isProbedAtStart: Bool {
        switch source {
        case .instanceMetadata, .developerTool: true
        default: !fallbacks.isEmpty
        }
    }

    /// What the credentials are; never a secret, a key or a token.
    public var description: String { sourceDescription + fallbacks.map { ", else \($0)" }.joined() }

    /// What the first source is.
    var sourceDescription: String {
        switch source {
        case .clientSecret(let tenant, let clientID, _, _): "client secret of \(clientID) in tenant \(tenant)"
        case .clientCertificate(let tenant, let clientID, _, _):
            "client certificate of \(clientID) in tenant \(tenant)"
        case .workloadIdentity(let tenant, let clientID, _, _): "workload identity \(clientID) in tenant \(tenant)"
        case .appService(let endpoint, _, let clientID):
            "managed identity\(clientID.map { " \($0)" } ?? "") of \(endpoint.host ?? "App Service")"
        case .instanceMetadata(let endpoint, let clientID):
            "managed identity\(clientID.map { " \($0)" } ?? "") of IMDS \(endpoint.host ?? "")"
        case .developerTool(let tool): "\(tool)"
        }
    }

    /// What gave the last token (the source or one of the developer tools after it), `nil` before one did.
    public var tokenSource: String? {
        chosen.withLock { $0 }.map { $0 == 0 ? sourceDescription : "\(fallbacks[$0 - 1])" }
    }

    /// `text` as an `http(s)` URL with a host, or an error naming `variable`.
    private static func url(_ text: String, _ variable: String) throws(CloudStoreError) -> URL {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            url.host?.isEmpty == false, url.query == nil
        else { throw CloudStoreError(.invalidSetting, "\(variable) must be an http(s) URL without a query") }
        return url
    }

    /// What `AZURE_TOKEN_CREDENTIALS` lets the chain use.
    struct Selection {
        enum Credential {
            case environment, workloadIdentity, managedIdentity
        }
        /// The variable's value in lower case, empty when unset.
        private let value: String

        init(_ text: String?) throws(CloudStoreError) {
            value = (text ?? "").trimmingCharacters(in: .whitespaces).lowercased()
            let known = [
                "", "dev", "prod", "environmentcredential", "workloadidentitycredential", "managedidentitycredential",
                "azureclicredential", "azuredeveloperclicredential",
            ]
            guard known.contains(value) else {
                throw CloudStoreError(
                    .invalidSetting,
                    "AZURE_TOKEN_CREDENTIALS must be dev, prod or the name of a credential of DefaultAzureCredential")
            }
        }

        func allows(_ credential: Credential) -> Bool {
            let name =
                switch credential {
                case .environment: "environmentcredential"
                case .workloadIdentity: "workloadidentitycredential"
                case .managedIdentity: "managedidentitycredential"
                }
            return value.isEmpty || value == "prod" || value == name
        }

        func allows(_ tool: AzureDeveloperCLI.Tool) -> Bool {
            let name = tool == .azureCLI ? "azureclicredential" : "azuredeveloperclicredential"
            return value.isEmpty || value == "dev" || value == name
        }
    }

    /// Throws unless `tenant` is letters, digits, `-` and `.`, as azidentity checks it.
    private static func check(tenant: String) throws(CloudStoreError) {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.")
        guard tenant.count <= 256, tenant.allSatisfy(allowed.contains) else {
            throw CloudStoreError(.invalidSetting, "AZURE_TENANT_ID may hold only letters, digits, '-' and '.'")
        }
    }
}
