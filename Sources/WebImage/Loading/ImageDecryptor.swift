import Foundation

/// Transforms downloaded bytes before they are decoded (decryption, de-obfuscation, unwrapping).
///
/// Runs once per caller on a 2xx response, before the ``ImageResponseValidator`` (so that it sees image bytes).
public struct ImageDecryptor: Sendable {
    /// Stands for the closure in stage keys: copies share it, separately made values do not.
    let identity = IdentityToken()
    private let body: @Sendable (Data, ImageResponse) throws(WebImageError) -> Data

    /// Creates a decryptor from a closure given the bytes and the response they came with.
    public init(_ body: @escaping @Sendable (Data, ImageResponse) throws(WebImageError) -> Data) { self.body = body }

    /// Transforms `data`.
    public func decrypt(_ data: Data, response: ImageResponse) throws(WebImageError) -> Data {
        try body(data, response)
    }

    /// Decodes a body that is the base64 text of the image.
    public static let base64 = ImageDecryptor { data, response throws(WebImageError) in
        guard let decoded = Data(base64Encoded: data, options: .ignoreUnknownCharacters) else {
            throw WebImageError(.invalidResponse, "the body is not valid base64", url: response.url)
        }
        return decoded
    }
}
