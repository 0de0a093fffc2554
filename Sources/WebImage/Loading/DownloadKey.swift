import Foundation

/// What makes two HTTP downloads the same: the request as sent and the settings that change the transfer.
struct DownloadKey: Hashable, Sendable {
    var request: ImageHTTPRequest
    var timeout: Duration
    var maxBodySize: Int
    var redirectLimit: Int
    var allowsInvalidCertificates: Bool
}

/// What a download tells its callers as bytes arrive.
struct DownloadEvent: Sendable {
    var received: Int
    var expected: Int?
    /// Every byte so far, when some caller wants partial data (progressive decoding).
    var data: Data?
}
