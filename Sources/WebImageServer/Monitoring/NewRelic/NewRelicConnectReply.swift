/// What New Relic's collector answers an agent's `connect` (its `return_value`), as much of it as the server uses:
/// the run's id, the account's number, the key of the account trusted by the trace headers, the application's id and
/// its entity's GUID. An id may come as text or as a number; anything else in the reply is ignored.
struct NewRelicConnectReply: Sendable, Equatable, Decodable {
    /// The agent run's id (`agent_run_id`): never empty in a reply the server takes.
    let runID: String
    /// The account's number (`account_id`).
    let accountID: String?
    /// The account whose `…@nr` trace state entries are trusted (`trusted_account_key`), the parent account's for a
    /// sub-account.
    let trustedAccountKey: String?
    /// The application's id (`primary_application_id`).
    let primaryApplicationID: String?
    /// The application's entity (`entity_guid`).
    let entityGUID: String?

    init(
        runID: String, accountID: String?, trustedAccountKey: String?, primaryApplicationID: String?,
        entityGUID: String? = nil
    ) {
        self.runID = runID
        self.accountID = accountID
        self.trustedAccountKey = trustedAccountKey
        self.primaryApplicationID = primaryApplicationID
        self.entityGUID = entityGUID
    }

    private enum CodingKeys: String, CodingKey {
        case runID = "agent_run_id"
        case accountID = "account_id"
        case trustedAccountKey = "trusted_account_key"
        case primaryApplicationID = "primary_application_id"
        case entityGUID = "entity_guid"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        runID = try Self.id(container, .runID) ?? ""
        accountID = try Self.id(container, .accountID)
        trustedAccountKey = try Self.id(container, .trustedAccountKey)
        primaryApplicationID = try Self.id(container, .primaryApplicationID)
        entityGUID = try Self.id(container, .entityGUID)
    }

    /// The value of `key` as text (a whole number written in decimal), `nil` when absent, null or empty.
    private static func id(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> String? {
        guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
        if let number = try? container.decode(Int64.self, forKey: key) { return String(number) }
        let text = try container.decode(String.self, forKey: key)
        return text.isEmpty ? nil : text
    }
}
