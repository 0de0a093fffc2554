import Foundation
import Testing
import WebImageTesting

/// `IMGPROXY_SO_REUSEPORT` with two real `webimage serve` processes: both bind one port and both answer its
/// connections (keep-alive off, so every request is a connection the kernel hands to one of them); without it the
/// second process cannot bind the port.
@Suite("Server: webimage serve with SO_REUSEPORT", .timeLimit(.minutes(1)))
struct ServeReusePortTests {
    static func environment(_ name: String) -> [String: String] {
        ["IMGPROXY_SO_REUSEPORT": "true", "IMGPROXY_KEEP_ALIVE_TIMEOUT": "0", "IMGPROXY_SERVER_NAME": name]
    }

    @Test func twoProcessesShareOnePortAndBothAnswer() async throws {
        var servers: [String: Int] = [:]
        let first = try await ServeLifecycleTests.serve(environment: Self.environment("first")) { base in
            let port = try #require(base.split(separator: ":").last.map(String.init))
            let second = try await ServeLifecycleTests.serve(
                environment: Self.environment("second"), arguments: ["--port", port]
            ) { same in
                #expect(same == base)
                for _ in 0..<200 {
                    let health = try await ServeImgproxyEnvironmentTests.get(
                        base + "/health", headers: [("Connection", "close")])
                    #expect(health.status == 200)
                    servers[health.headers["server"] ?? "", default: 0] += 1
                }
            }
            #expect(!Self.warnsAbout(second), "\(second)")
        }
        #expect(!Self.warnsAbout(first), "\(first)")
        #expect(servers["first", default: 0] > 0 && servers["second", default: 0] > 0, "\(servers)")
        #expect(servers.values.reduce(0, +) == 200)
    }

    /// Whether the start-up warning names `IMGPROXY_SO_REUSEPORT` as unsupported.
    static func warnsAbout(_ errors: String) -> Bool {
        errors.split(separator: "\n").contains { $0.contains("not supported") && $0.contains("SO_REUSEPORT") }
    }

    @Test func withoutItTheSecondProcessCannotBindThePort() async throws {
        let executable = try #require(ServeCommandTests.executable, "webimage was not built next to the tests")
        _ = try await ServeLifecycleTests.serve(environment: ["IMGPROXY_SERVER_NAME": "first"]) { base in
            let port = try #require(base.split(separator: ":").last.map(String.init))
            let process = Process()
            process.executableURL = executable
            process.arguments = ["serve", "--port", port, "--no-cache"]
            process.environment = ["PATH": "/usr/bin:/bin"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            await ServeLifecycleTests.offPool { process.waitUntilExit() }
            #expect(process.terminationStatus != 0, "the port is taken")
        }
    }
}
