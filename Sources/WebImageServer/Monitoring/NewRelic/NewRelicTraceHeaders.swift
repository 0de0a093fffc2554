import Foundation

/// New Relic's distributed-tracing headers, as its agents read and write them: W3C `traceparent` and `tracestate`
/// (New Relic's entry `{trusted account}@nr=0-0-{account}-{app}-{span}-{transaction}-{sampled}-{priority}-{ms}`),
/// and the older `newrelic` header (base64 JSON `{"v":[0,1],"d":{…}}`), read when there is no `traceparent`.
enum NewRelicTraceHeaders {
    /// The caller's span from `traceparent` (with `tracestate`), else from `newrelic`; `nil` when neither is valid.
    /// With a `trustedKey`, only its `tracestate` entry is New Relic's (the Go agent's rule); without one, any
    /// `…@nr` entry is.
    static func read(
        traceparent: String?, tracestate: String?, newrelic: String?, trustedKey: String? = nil
    ) -> NewRelicSpanContext? {
        if let traceparent { return read(traceparent: traceparent, tracestate: tracestate, trustedKey: trustedKey) }
        return newrelic.flatMap(read(newrelic:))
    }

    /// `traceparent`: `00-{32 hex trace}-{16 hex parent}-{2 hex flags}`, neither id all zeros, version `ff` refused;
    /// the sampled flag and the priority of New Relic's `tracestate` entry (the `trustedKey`'s when there is one), the
    /// other entries passed on.
    static func read(traceparent: String, tracestate: String?, trustedKey: String? = nil) -> NewRelicSpanContext? {
        let parts = traceparent.trimmingCharacters(in: .whitespaces).split(
            separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[0].count == 2, parts[0] != "ff", isHex(parts[0]), parts[1].count == 32,
            isHex(parts[1]), parts[2].count == 16, isHex(parts[2]), parts[3].count == 2,
            let flags = UInt8(parts[3], radix: 16), parts[0] != "00" || parts.count == 4,
            parts[1].contains(where: { $0 != "0" }), parts[2].contains(where: { $0 != "0" })
        else { return nil }
        var sampled = flags & 1 == 1
        var priority = randomPriority(sampled: sampled)
        var others: [String] = []
        for entry in (tracestate ?? "").split(separator: ",") {
            let entry = entry.trimmingCharacters(in: .whitespaces)
            guard let equals = entry.firstIndex(of: "="), !entry.isEmpty else { continue }
            let vendor = entry[..<equals]
            guard trustedKey.map({ vendor == $0 + "@nr" }) ?? vendor.hasSuffix("@nr") else {
                if others.count < 31 { others.append(entry) }
                continue
            }
            let fields = entry[entry.index(after: equals)...].split(separator: "-", omittingEmptySubsequences: false)
            if fields.count >= 9 {
                if fields[6] == "1" || fields[6] == "0" { sampled = fields[6] == "1" }
                if let value = Double(fields[7]), value.isFinite, (0...2).contains(value) { priority = value }
            }
        }
        return NewRelicSpanContext(
            traceID: parts[1].lowercased(), spanID: parts[2].lowercased(), transaction: nil, sampled: sampled,
            priority: priority, otherVendors: others)
    }

    /// `newrelic`: base64 of `{"v":[0,1],"d":{"tr":trace,"id":span or "tx":transaction,"pr":priority,"sa":sampled}}`,
    /// neither id all zeros.
    static func read(newrelic: String) -> NewRelicSpanContext? {
        guard newrelic.utf8.count <= 4096,
            let data = Data(base64Encoded: newrelic.trimmingCharacters(in: .whitespaces)),
            let payload = try? JSONDecoder().decode(Payload.self, from: data),
            let trace = payload.d.tr, (1...32).contains(trace.count), isHex(Substring(trace)),
            let span = payload.d.id ?? payload.d.tx, (1...16).contains(span.count), isHex(Substring(span)),
            trace.contains(where: { $0 != "0" }), span.contains(where: { $0 != "0" })
        else { return nil }
        let sampled = payload.d.sa ?? true
        let priority = payload.d.pr.flatMap { $0.isFinite && (0...2).contains($0) ? $0 : nil }
        return NewRelicSpanContext(
            traceID: padded(trace.lowercased(), to: 32), spanID: padded(span.lowercased(), to: 16), transaction: nil,
            sampled: sampled, priority: priority ?? randomPriority(sampled: sampled), otherVendors: [])
    }

    /// The headers for a request out of the span `span`: `traceparent` always; with the New Relic `account`, its
    /// `tracestate` entry (under the trusted key) first and the `newrelic` header (its `tk` only when the trusted key
    /// is not the account, as the Go agent writes it); the caller's other `tracestate` entries after.
    static func write(_ span: NewRelicSpanContext, account: NewRelicAccount?, now: Date) -> [(String, String)] {
        var headers = [("traceparent", "00-\(span.traceID)-\(span.spanID)-\(span.sampled ? "01" : "00")")]
        var state = span.otherVendors
        if let account {
            let milliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
            let priority = String(format: "%.6f", span.priority)
            let transaction = span.transaction?.id ?? ""
            let (id, app) = (account.id, account.applicationID)
            state.insert(
                "\(account.trustedKey)@nr=0-0-\(id)-\(app)-\(span.spanID)-\(transaction)-\(span.sampled ? 1 : 0)-"
                    + "\(priority)-\(milliseconds)", at: 0)
            let payload = Payload(
                v: [0, 1],
                d: .init(
                    ty: "App", ac: id, ap: app, id: span.spanID, tr: span.traceID, pr: span.priority,
                    sa: span.sampled, ti: milliseconds, tx: span.transaction?.id,
                    tk: account.trustedKey == id ? nil : account.trustedKey))
            if let json = try? JSONEncoder().encode(payload) {
                headers.append(("newrelic", json.base64EncodedString()))
            }
        }
        if !state.isEmpty { headers.append(("tracestate", state.joined(separator: ","))) }
        return headers
    }

    /// 1 plus a random fraction for a sampled trace, the fraction alone otherwise, rounded to 6 digits.
    static func randomPriority(sampled: Bool) -> Double {
        ((Double.random(in: 0..<1) + (sampled ? 1 : 0)) * 1_000_000).rounded() / 1_000_000
    }

    /// Whether `text` is ASCII hex digits, at least one.
    private static func isHex(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0 | 0x20) }
    }

    private static func padded(_ text: String, to count: Int) -> String {
        String(repeating: "0", count: max(0, count - text.count)) + text
    }

    /// The `newrelic` header's JSON.
    private struct Payload: Codable {
        let v: [Int]
        let d: Fields

        struct Fields: Codable {
            var ty: String?
            var ac: String?
            var ap: String?
            var id: String?
            var tr: String?
            var pr: Double?
            var sa: Bool?
            var ti: Int64?
            var tx: String?
            var tk: String?
        }
    }
}
