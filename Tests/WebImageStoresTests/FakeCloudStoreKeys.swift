import Foundation
import _CryptoExtras

/// Service-account keys the fake's token service does not know.
enum FakeCloudStoreKeys {
    /// A key of its own (a fresh RSA key) for `other@project.iam.gserviceaccount.com`, exchanged at `tokenURI`.
    static func otherKey(tokenURI: String) -> String {
        let pem = (try? _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation) ?? ""
        let object: [String: Any] = [
            "type": "service_account", "private_key": pem, "client_email": "other@project.iam.gserviceaccount.com",
            "token_uri": tokenURI,
        ]
        return String(decoding: (try? JSONSerialization.data(withJSONObject: object)) ?? Data(), as: UTF8.self)
    }
}
