import Foundation
import Testing

@testable import WebImageServer

/// Whatever a collector answers, the reply is read as a connect reply or refused with a typed error, and the account
/// taken from it carries numbers alone into the headers and the Event API's URL.
@Suite struct NewRelicCollectorPropertyTests {
    static let pieces = [
        "{", "}", "[", "]", ",", ":", "\"", "return_value", "exception", "agent_run_id", "account_id",
        "trusted_account_key", "primary_application_id", "error_type", "message", "null", "true", "1", "-7", "1e400",
        "99999999999999999999999", "\"12\"", "\"a/b\"", "\"\"", " ", "\\u0000", "0.5",
    ]

    static let values = [
        "1", "-7", "0.5", "1e400", "99999999999999999999999", "\"12\"", "\"a/b\"", "\"\"", "\"9\\r\\n\"", "null",
        "true",
        "[]", "{}", "\"123456789012345678901\"",
    ]

    @Test func anyReplyIsReadOrRefused() {
        var generator = SystemRandomNumberGenerator()
        var accounts = 0
        for round in 0..<3000 {
            var text = ""
            if round % 2 == 0 {
                // A reply of the right shape, each id a random value.
                let fields = ["agent_run_id", "account_id", "trusted_account_key", "primary_application_id"].map {
                    "\"\($0)\":" + Self.values.randomElement(using: &generator)!
                }
                text = #"{"return_value":{"# + fields.joined(separator: ",") + "}}"
            } else {
                for _ in 0..<Int.random(in: 0...24, using: &generator) {
                    text += Self.pieces.randomElement(using: &generator)!
                }
            }
            let status: UInt = round % 7 == 0 ? 202 : 200
            do {
                let reply: NewRelicConnectReply = try NewRelicCollector.read(
                    "connect", status: status, body: Data(text.utf8))
                let account = NewRelicAccount(configured: nil, reply: reply)
                if account != nil { accounts += 1 }
                for id in [account?.id, account?.trustedKey, account?.applicationID].compactMap({ $0 }) {
                    #expect(NewRelicAccount.number(id) == id, "\(text)")
                }
            } catch {
                #expect(error.method == "connect", "\(text)")
            }
        }
        // Well-formed replies with numbers come often enough to be checked.
        #expect(accounts > 0)
    }

    @Test func aReplyWithNumbersIsTaken() throws {
        let body = #"{"return_value":{"agent_run_id":12,"account_id":"5678","trusted_account_key":99}}"#
        let reply: NewRelicConnectReply = try NewRelicCollector.read("connect", status: 200, body: Data(body.utf8))
        #expect(
            reply
                == NewRelicConnectReply(
                    runID: "12", accountID: "5678", trustedAccountKey: "99", primaryApplicationID: nil))
        #expect(throws: NewRelicCollectorError(method: "connect", reason: .status(204))) {
            let _: NewRelicConnectReply = try NewRelicCollector.read("connect", status: 204, body: Data(body.utf8))
        }
    }
}
