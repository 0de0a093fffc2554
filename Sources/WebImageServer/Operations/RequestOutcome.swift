import Foundation
import Hummingbird

/// A response and what the request log and the metrics say about it, for image and `/info` requests alike.
struct RequestOutcome: Sendable {
    var response: Response
    /// Which endpoint answered.
    var endpoint = Endpoint.image
    /// How it was answered.
    var cache = CacheOutcome.none
    /// The source's host (or `local`), never the full URL.
    var sourceHost = ""
    /// Response body bytes.
    var bytes = 0
    /// The error the request failed with (or that a fallback image answered for), for the error reporters.
    var failure: ImageServerError?
    /// The source's URL once the policy allowed it, for the error reporters.
    var source: URL?
}
