import Foundation

/// Loads `data:` URIs (RFC 2397), base64 (`data:image/png;base64,…`) or percent-encoded (`data:image/svg+xml,%3Csvg…`).
///
/// A URI without a comma, with bad base64 or with a bad percent escape fails with
/// ``WebImageError/Code/invalidSource``. The validator and decryptor of the options apply.
public struct DataURLImageLoader: ImageLoading {
    /// Creates a `data:` loader.
    public init() {}

    public func canLoad(_ url: URL) -> Bool { url.scheme?.lowercased() == "data" }

    public func load(
        _ request: ImageLoadRequest, progress: ImageLoadProgressHandler?, partialData: ImagePartialDataHandler?
    ) async throws(WebImageError) -> ImageResponse {
        let (data, type) = try Self.decode(request.url)
        guard data.count <= request.options.maxBodySize else {
            throw WebImageError(.bodyTooLarge, "the data URI holds \(data.count) bytes", url: request.url)
        }
        progress?(data.count, data.count)
        partialData?(data)
        let response = ImageResponse(data: data, url: request.url, contentType: type, expectedLength: data.count)
        return try request.options.finish(response)
    }

    /// The bytes and MIME type (`text/plain` when omitted) of the `data:` URI `url`.
    public static func decode(_ url: URL) throws(WebImageError) -> (data: Data, contentType: String) {
        let text = url.absoluteString
        guard text.lowercased().hasPrefix("data:") else {
            throw WebImageError(.invalidSource, "not a data: URI", url: url)
        }
        guard let comma = text.firstIndex(of: ",") else {
            throw WebImageError(.invalidSource, "malformed data: URI: no comma before the data", url: url)
        }
        let header = text[text.index(text.startIndex, offsetBy: 5)..<comma]
        var parameters = header.split(separator: ";", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let isBase64 = parameters.last?.lowercased() == "base64"
        if isBase64 { parameters.removeLast() }
        let type = parameters.first.flatMap { $0.isEmpty ? nil : $0.lowercased() } ?? "text/plain"
        guard let bytes = percentDecode(text[text.index(after: comma)...]) else {
            throw WebImageError(.invalidSource, "malformed data: URI: bad percent escape", url: url)
        }
        guard isBase64 else { return (bytes, type) }
        guard let decoded = Data(base64Encoded: bytes, options: .ignoreUnknownCharacters),
            !decoded.isEmpty || bytes.isEmpty
        else {
            throw WebImageError(.invalidSource, "malformed data: URI: bad base64", url: url)
        }
        return (decoded, type)
    }

    /// `%XX` escapes to bytes; `nil` for a truncated or non-hex escape.
    private static func percentDecode(_ text: Substring) -> Data? {
        var out = Data()
        out.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            out.append(high << 4 | low)
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
