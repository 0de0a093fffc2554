import Foundation
import WebImage

/// A finished result as the result tiers keep it.
struct StoredResult: Sendable {
    var data: Data
    var format: ImageFormat
    /// `Last-Modified` of the response: the origin's when it sent one, otherwise when the result was made.
    let lastModified: Date
    /// ``lastModified`` as the header's text, formatted once (a `DateFormatter` is slow to make).
    let lastModifiedHeader: String
    /// The origin's `Last-Modified`, when it sent one.
    let sourceLastModified: String?

    init(data: Data, format: ImageFormat, created: Date, sourceLastModified: String?) {
        self.data = data
        self.format = format
        self.sourceLastModified = sourceLastModified
        lastModified = sourceLastModified.flatMap(HTTPDate.date) ?? created
        lastModifiedHeader = HTTPDate.string(lastModified)
    }
}
