import Foundation
import WebImage

/// The access token of an OAuth 2.0 token answer (Google's token service and metadata server, Microsoft Entra ID,
/// Azure's managed identity endpoints): `access_token`, and its lifetime from `expires_in` (a number, or a numeric
/// string as Azure's IMDS writes it), else `expires_on` (seconds since 1970), else an hour; at most a day.
enum OAuthToken {
    /// The token and its lifetime of the JSON answer `body`.
    ///
    /// - Throws: an `.invalidResponse` `WebImageError` when the answer has no usable `access_token`.
    static func read(_ body: Data, now: Date = Date()) throws(WebImageError) -> (String, Duration) {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let value = object["access_token"] as? String, !value.isEmpty,
            value.allSatisfy({ $0.isASCII && !$0.isWhitespace && !$0.isNewline })
        else {
            let error = CloudStoreError(.authenticationFailed, "the token service's answer has no access_token")
            throw WebImageError(.invalidResponse, error.message, underlying: error)
        }
        var seconds = 3600.0
        if let given = number(object["expires_in"]) {
            seconds = given
        } else if let date = number(object["expires_on"]) {
            seconds = date - now.timeIntervalSince1970
        }
        let lifetime = seconds.isFinite && seconds > 0 ? Duration.seconds(min(seconds, 86_400)) : .seconds(0)
        return (value, lifetime)
    }

    /// A JSON number, or a string of one.
    private static func number(_ value: Any?) -> Double? {
        if let text = value as? String { return Double(text) }
        return (value as? NSNumber)?.doubleValue
    }
}
