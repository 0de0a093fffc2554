import Foundation
import Testing

/// `webimage serve`'s request log: one line a request in each format, written by the log thread in batches and
/// all of them on standard error by the time the process has exited.
@Suite("Serve: the request log", .serialized)
struct ServeRequestLogTests {
    static let requests = 300

    @Test(arguments: ["pretty", "structured", "json"])
    func everyRequestHasItsLineByExit(format: String) async throws {
        let log = try await ServeLifecycleTests.serve(environment: [:], arguments: ["--log-format", format]) { base in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<Self.requests {
                    group.addTask {
                        try await ServeImgproxyEnvironmentTests.get(base + "/insecure/w:x\(index)/plain/http://a")
                            .status
                    }
                }
                for try await status in group { #expect(status == 404) }
            }
        }
        let lines = log.split(separator: "\n").map(String.init)
        let requests = lines.filter { $0.contains("request") && $0.contains("status") }
        #expect(requests.count == Self.requests, "\(log.suffix(2000))")
        let started = try #require(lines.firstIndex { $0.contains("Server started") }, "\(log.prefix(2000))")
        #expect(lines.firstIndex { $0.contains("status") } ?? 0 > started)
        for line in requests {
            switch format {
            case "pretty":
                #expect(line.contains(" info webimage.serve: bytes=0 cache=none duration_ms="), "\(line)")
                #expect(line.hasSuffix(" method=GET source_host= status=404 [WebImageServer] request"), "\(line)")
                #expect(line.prefix(4).allSatisfy(\.isNumber) && line.dropFirst(4).hasPrefix("-"), "\(line)")
            case "structured":
                #expect(line.hasPrefix("time=") && line.contains(" level=info msg=request bytes=0 "), "\(line)")
            default:
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
                #expect(object?["msg"] == "request" && object?["status"] == "404", "\(line)")
                #expect(object?["time"]?.hasSuffix("Z") == true && object?["time"]?.count == 24, "\(line)")
            }
        }
    }
}
