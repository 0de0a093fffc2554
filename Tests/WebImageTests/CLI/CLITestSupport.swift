import Foundation
import Testing
import WebImageTesting

/// Runs the built `webimage` executable (built by `swift test`: the test target depends on it).
enum CLI {
    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String

        /// The lines of standard output parsed as JSON objects.
        var jsonLines: [[String: Any]] {
            stdout.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            }
        }
    }

    /// The executable next to the test bundle.
    static var executable: URL? {
        var candidates = [
            Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ]
        candidates += candidates.map { $0.deletingLastPathComponent() }
        return candidates.map { $0.appendingPathComponent("webimage") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs `webimage arguments…` in `home`, with `XDG_CACHE_HOME` inside it (never the user's cache); output goes
    /// through files so a chatty child cannot block on a full pipe. `interruptAfter` sends SIGINT after that many
    /// seconds. `installed` runs that copy of the executable instead of the built one.
    static func run(
        _ arguments: [String], home: URL, interruptAfter: Double? = nil, installed: URL? = nil
    ) async throws -> Output {
        let executable = try #require(
            installed ?? executable, "the webimage executable was not built next to the tests")
        let out = home.appendingPathComponent("stdout-\(UUID().uuidString)")
        let err = home.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = home
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent("xdg").path
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
                return
            }
            if let interruptAfter {
                let pid = process.processIdentifier
                DispatchQueue.global().asyncAfter(deadline: .now() + interruptAfter) { _ = kill(pid, SIGINT) }
            }
        }
        return Output(
            status: status, stdout: try String(contentsOf: out, encoding: .utf8),
            stderr: try String(contentsOf: err, encoding: .utf8))
    }

    /// A fresh temporary directory, removed after `body`.
    static func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("webimage-cli-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory)
    }

    /// A started test server and a temporary directory, both gone after `body`.
    static func withServer<T>(_ body: (TestImageServer, URL) async throws -> T) async throws -> T {
        let server = TestImageServer()
        try await server.start()
        do {
            let value = try await withTemporaryDirectory { try await body(server, $0) }
            try await server.shutdown()
            return value
        } catch {
            try? await server.shutdown()
            throw error
        }
    }

    /// The URL of a corpus image on `server`.
    static func corpusURL(_ server: TestImageServer, _ name: String) -> String {
        server.url("/fixtures/corpus/images/\(name)").absoluteString
    }
}
