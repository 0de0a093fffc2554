/// Why New Relic's collector did not connect the agent: a status other than 200 or 202, an exception in the reply's
/// body (`ForceRestartException`, `LicenseException`… of the agent protocol), a reply that is not the JSON expected,
/// or the request that failed.
struct NewRelicCollectorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The failure.
    enum Reason: Sendable, Equatable {
        /// The collector answered this HTTP status.
        case status(UInt)
        /// The collector's reply carried an exception: its `error_type` and `message`.
        case exception(type: String, message: String)
        /// The reply is not the JSON of the method's answer.
        case malformedReply(String)
        /// The request failed before an answer.
        case transport(String)
    }

    /// The collector call that failed (`preconnect`, `connect`).
    let method: String
    /// The failure.
    let reason: Reason

    /// Whether the agent must stop trying, as the Go agent stops: the status 410 (the protocol's
    /// `ForceDisconnectException`) or that exception in the body. Any other failure is retried after a back-off.
    var isDisconnect: Bool {
        switch reason {
        case .status(let status): status == 410
        case .exception(let type, _): type.hasSuffix("ForceDisconnectException")
        case .malformedReply, .transport: false
        }
    }

    var description: String {
        switch reason {
        case .status(let status): "\(method): HTTP \(status)"
        case .exception(let type, let message): "\(method): \(type): \(message.prefix(300))"
        case .malformedReply(let detail): "\(method): unexpected reply: \(detail.prefix(300))"
        case .transport(let detail): "\(method): \(detail.prefix(300))"
        }
    }
}
