import Foundation
import NIOCore
import WebImage

/// A finished result as the result tiers keep it, with the validators its origin sent when it was made.
struct StoredResult: Sendable {
    /// The encoded bytes, as every response sends them: a `ByteBuffer` shares its storage, so a hit's body is never
    /// copied.
    let body: ByteBuffer
    let format: ImageFormat
    /// The origin's `ETag` and `Last-Modified` as it sent them with the source (each `nil` when it sent none): what
    /// the tiers store with the result.
    let origin: ImageValidators
    /// The `ETag` answered with the result (``ResponseValidators/etag(origin:)``), made once; `nil` for none.
    let etag: String?
    /// The `Last-Modified` answered with the result (``ResponseValidators/lastModified(origin:)``), made once; `nil`
    /// for none: never the time the result was made.
    let lastModified: String?
    /// ``count`` as the `Content-Length` header's text.
    let contentLength: String
    /// The debug headers' facts, kept only while the server sends them.
    let debug: DebugFacts?

    init(
        data: Data, format: ImageFormat, origin: ImageValidators, validators: ResponseValidators,
        debug: DebugFacts? = nil
    ) {
        body = ByteBuffer(bytes: data)
        self.format = format
        self.origin = origin
        etag = validators.etag(origin: origin.etag)
        lastModified = validators.lastModified(origin: origin.lastModified)
        contentLength = String(data.count)
        self.debug = debug
    }

    /// The body's length in bytes.
    var count: Int { body.readableBytes }
}
