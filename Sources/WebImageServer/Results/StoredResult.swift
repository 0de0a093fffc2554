import Foundation
import NIOCore
import WebImage

/// A finished result as the result tiers keep it.
struct StoredResult: Sendable {
    /// The encoded bytes, as every response sends them: a `ByteBuffer` shares its storage, so a hit's body is never
    /// copied.
    let body: ByteBuffer
    let format: ImageFormat
    /// `Last-Modified` of the response: the origin's when it sent one, otherwise when the result was made.
    let lastModified: Date
    /// ``lastModified`` as the header's text, formatted once (a `DateFormatter` is slow to make).
    let lastModifiedHeader: String
    /// ``count`` as the `Content-Length` header's text.
    let contentLength: String
    /// The origin's `Last-Modified`, when it sent one.
    let sourceLastModified: String?

    init(data: Data, format: ImageFormat, created: Date, sourceLastModified: String?) {
        body = ByteBuffer(bytes: data)
        self.format = format
        self.sourceLastModified = sourceLastModified
        lastModified = sourceLastModified.flatMap(HTTPDate.date) ?? created
        lastModifiedHeader = HTTPDate.string(lastModified)
        contentLength = String(data.count)
    }

    /// The body's length in bytes.
    var count: Int { body.readableBytes }
}
