/// Prometheus text format, read back for assertions.
struct MetricsText {
    let text: String

    init(_ text: String) { self.text = text }

    /// The value of the sample `name` whose labels include all of `labels`, or `nil` if there is none.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " ") else { continue }
            let series = line[..<space]
            let sampleName = series.prefix { $0 != "{" }
            guard sampleName == name else { continue }
            if labels.allSatisfy({ series.contains("\($0.key)=\"\($0.value)\"") }) {
                return Double(line[line.index(after: space)...])
            }
        }
        return nil
    }
}
