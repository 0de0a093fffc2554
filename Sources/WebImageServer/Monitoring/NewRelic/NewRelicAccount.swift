/// The New Relic account the trace headers and the error events name: its number, the key of the account trusted in
/// `tracestate` (the number itself unless the collector named a parent account) and the application's id (`0` until
/// the collector names it).
struct NewRelicAccount: Sendable, Equatable {
    /// The account's number.
    let id: String
    /// The trusted account key: the `tracestate` entry's `{key}@nr`, and the `newrelic` header's `tk` when it is not
    /// ``id``.
    let trustedKey: String
    /// The application's id: the `newrelic` header's `ap` and the `tracestate` entry's fourth field.
    let applicationID: String

    init(id: String, trustedKey: String? = nil, applicationID: String? = nil) {
        self.id = id
        self.trustedKey = trustedKey ?? id
        self.applicationID = applicationID ?? "0"
    }

    /// The account of the setting `configured` (`--new-relic-account-id`), which wins, else the one the collector
    /// named in `reply`; `nil` with neither. The application's id is the collector's when it answered, and so is the
    /// trusted key unless the setting names another account than the collector's.
    /// The collector's ids are taken only when they are numbers (up to 20 digits), as the headers and the Event API's
    /// URL carry them.
    init?(configured: String?, reply: NewRelicConnectReply?) {
        let learned = reply?.accountID.flatMap(Self.number)
        guard let id = configured ?? learned else { return nil }
        let trusted = configured == nil || configured == learned ? reply?.trustedAccountKey.flatMap(Self.number) : nil
        self.init(id: id, trustedKey: trusted, applicationID: reply?.primaryApplicationID.flatMap(Self.number))
    }

    /// `text` when it is a number of 1 to 20 decimal digits.
    static func number(_ text: String) -> String? {
        (1...20).contains(text.utf8.count) && text.utf8.allSatisfy({ (48...57).contains($0) }) ? text : nil
    }
}
