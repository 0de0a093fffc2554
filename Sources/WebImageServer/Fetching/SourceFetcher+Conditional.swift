import Foundation
import WebImage

extension SourceFetcher {
    /// What a conditional fetch found.
    enum ConditionalSource: Sendable {
        /// The source did not change since the validators: the origin's own validators, for the 304.
        case notModified(ImageValidators)
        /// The source's bytes.
        case fetched(Source)
    }

    /// The source at `url` for a client that sent validators, as imgproxy fetches it: an HTTP(S) origin is asked
    /// with `conditions` (`If-None-Match`, `If-Modified-Since`) and its 304 is ``ConditionalSource/notModified(_:)``;
    /// the request goes to the origin itself, never to the originals cache or the shared tier (the validators are
    /// the client's). Any other source (`local://`, `s3://`) is fetched as ``fetch(_:maxSize:)`` fetches it and
    /// compared with `conditions` as imgproxy's storage compares them.
    func fetch(
        _ url: URL, conditions: ImageValidators, maxSize: Int?
    ) async throws(ImageServerError) -> ConditionalSource {
        guard HTTPImageLoader.canLoadScheme(of: url) else {
            let source = try await fetch(url, maxSize: maxSize)
            let origin = source.validators
            let same = ResponseValidators.originNotModified(
                conditions, etag: origin.etag, lastModified: origin.lastModified)
            return same ? .notModified(origin) : .fetched(source)
        }
        let response = try await loadFromOrigin(url, conditions: conditions, maxSize: maxSize)
        let validators = Self.validators(of: response)
        if response.isNotModified { return .notModified(validators) }
        return .fetched(Source(data: response.data, validators: validators))
    }

    /// The origin statuses a conditional fetch takes: imgproxy's (``imgproxyStatuses``) and 304.
    static let conditionalStatuses = ImageResponseValidator { response throws(WebImageError) in
        guard response.httpStatus != 304 else { return }
        try imgproxyStatuses.validate(response)
    }
}
