/// Why a Google Cloud Storage, Azure Blob Storage, OpenStack Swift or Secret Manager client could not be made or
/// could not authenticate: a malformed service-account key or account key, a refused sign-in, an unusable setting.
/// Its description names the store and what is wrong, never a key, a password or a token.
public struct CloudStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: Sendable, Hashable {
            case invalidKey, invalidSetting, authenticationFailed, secretUnavailable
        }
        private let value: Value

        /// A key that cannot be used: not a service-account key, not base64, no usable private key.
        public static let invalidKey = Code(value: .invalidKey)
        /// A setting that cannot be used: a missing account name, an endpoint that is not `http(s)`.
        public static let invalidSetting = Code(value: .invalidSetting)
        /// The store's or the token service's refusal of the credentials, or an answer that is not a sign-in.
        public static let authenticationFailed = Code(value: .authenticationFailed)
        /// A secret that could not be read or parsed.
        public static let secretUnavailable = Code(value: .secretUnavailable)

        public var description: String {
            switch value {
            case .invalidKey: "invalid key"
            case .invalidSetting: "invalid setting"
            case .authenticationFailed: "authentication failed"
            case .secretUnavailable: "secret unavailable"
            }
        }
    }

    /// The kind of failure.
    public let code: Code
    /// What failed, without credentials.
    public let message: String

    /// An error of `code` saying `message`, which must not hold a credential.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
