/// Why the settings of an S3 client could not be resolved from the environment and the shared AWS files
/// (``S3Environment``). Each names the source it was reading (a variable, a file and its line, a profile), never a
/// secret or a session token.
public enum S3ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No source had credentials; `tried` names each one looked at, in order.
    case noCredentials(tried: [String])
    /// A source has an access key without its secret (`missing` names what is missing).
    case incompleteCredentials(source: String, missing: String)
    /// `AWS_PROFILE` names a profile that neither file has.
    case profileNotFound(profile: String, files: [String])
    /// A file is not the INI the AWS tools read: the line and what is wrong with it.
    case malformedFile(path: String, line: Int, reason: String)
    /// A file exists but could not be read, or is larger than the limit.
    case unreadableFile(path: String, reason: String)
    /// A source asks for a way of getting credentials that is not supported here (an STS role, SSO, a credential
    /// process): the AWS tools would use it, so using other credentials instead would be a surprise.
    case unsupported(source: String, setting: String)
    /// A setting's value cannot be used (an endpoint that is not an `http(s)` URL, an unknown addressing style).
    case invalidValue(source: String, reason: String)

    public var description: String {
        switch self {
        case .noCredentials(let tried):
            "no S3 credentials found (tried \(tried.joined(separator: ", "))); instance metadata, containers and SSO "
                + "are not consulted"
        case .incompleteCredentials(let source, let missing):
            "incomplete S3 credentials in \(source): \(missing) is missing"
        case .profileNotFound(let profile, let files):
            "the AWS profile '\(profile)' (AWS_PROFILE) is in neither "
                + (files.isEmpty ? "file (no shared files)" : files.joined(separator: " nor "))
        case .malformedFile(let path, let line, let reason):
            "\(path):\(line): \(reason)"
        case .unreadableFile(let path, let reason):
            "\(path): \(reason)"
        case .unsupported(let source, let setting):
            "\(source) gets its credentials through \(setting), which is not supported (only access keys, with a "
                + "session token or not, from the environment or the shared files)"
        case .invalidValue(let source, let reason):
            "\(source): \(reason)"
        }
    }
}
