/// Which endpoint answered a request, as the `endpoint` label of `webimage_requests_total` and the request log say it.
enum Endpoint: String, Sendable, CaseIterable {
    /// An image (processing or `raw`) URL.
    case image
    /// `/info/...`.
    case info
}

/// How a request was answered, as the `cache` label of `webimage_requests_total` and the request log say it.
enum CacheOutcome: String, Sendable, CaseIterable {
    /// From the node's memory tier.
    case memory
    /// From the node's disk tier.
    case disk
    /// From the cluster's shared tier.
    case shared
    /// Made here (or joined a run making it).
    case miss
    /// 304: the client's validator matched.
    case notModified = "not_modified"
    /// Answered by the node that owns the result (`--peer-forward`).
    case forwarded
    /// Refused before any tier was asked.
    case none
}

/// What went wrong at the origin, as the `kind` label of `webimage_origin_errors_total` says it.
enum OriginFailure: String, Sendable, CaseIterable {
    /// A 4xx answer.
    case status4xx = "status_4xx"
    /// A 5xx answer.
    case status5xx = "status_5xx"
    /// Any other status that is not 200, 206 or a redirect.
    case statusOther = "status_other"
    /// The download took longer than the download timeout.
    case timeout
    /// The body was shorter than announced.
    case incomplete
    /// The body was larger than the source size limit.
    case tooLarge = "too_large"
    /// The address is not one the SSRF rules allow.
    case forbidden
    /// No connection, or another failure.
    case unreachable
    /// The request went away first.
    case cancelled
}
