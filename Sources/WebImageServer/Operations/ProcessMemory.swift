/// The process's resident memory, from `/proc/self/status`: what imgproxy's memory statistics and libvips' leak check
/// report (the resident set now and at its peak).
package struct ProcessMemory: Sendable, Equatable {
    /// The resident set now (`VmRSS`), in KiB.
    package var rss: Int
    /// The largest resident set so far (`VmHWM`, the high-water mark), in KiB.
    package var maxRSS: Int
    /// The anonymous part of the resident set (`RssAnon`: the heap, not mapped files), in KiB.
    package var anonymousRSS: Int

    /// The process's memory now; `nil` where `/proc/self/status` cannot be read.
    package static func current() -> ProcessMemory? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        return ProcessMemory(status: status)
    }

    /// The memory a `/proc/PID/status` text gives (a field it lacks reads 0).
    package init(status: String) {
        let fields = Self.kibibytes(in: status, named: ["VmRSS", "VmHWM", "RssAnon"])
        rss = fields["VmRSS", default: 0]
        maxRSS = fields["VmHWM", default: 0]
        anonymousRSS = fields["RssAnon", default: 0]
    }

    /// The `NAME:  1234 kB` lines of a `/proc/PID/status` text whose name is in `names`, in KiB.
    static func kibibytes(in status: String, named names: Set<String>) -> [String: Int] {
        var found: [String: Int] = [:]
        for line in status.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":"), names.contains(String(line[..<colon])) else { continue }
            let number = line[line.index(after: colon)...].split(whereSeparator: \.isWhitespace).first.flatMap {
                Int($0)
            }
            if let number { found[String(line[..<colon])] = number }
        }
        return found
    }
}
