import AsyncHTTPClient
import Foundation
import Testing
import WebImageTesting

/// A real server process started by a test (SeaweedFS, nginx): killed and reaped by ``stop()``.
final class LocalProcess: Sendable {
    let process: Process
    let directory: URL

    private init(process: Process, directory: URL) {
        self.process = process
        self.directory = directory
    }

    /// Starts `executable arguments…` with its output appended to `directory/NAME.log` and `environment` added to
    /// this process's, whose AWS variables are left out and whose shared AWS files are none (``hermetic(_:)``).
    static func start(
        _ executable: String, _ arguments: [String], in directory: URL, log: String,
        environment: [String: String] = [:]
    ) throws
        -> LocalProcess
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = hermetic(ProcessInfo.processInfo.environment).merging(environment) { $1 }
        process.currentDirectoryURL = directory
        let logURL = directory.appendingPathComponent("\(log).log")
        if !FileManager.default.fileExists(atPath: logURL.path) {
            _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        }
        // Appended, so a restarted process keeps its predecessor's lines.
        let handle = try FileHandle(forWritingTo: logURL)
        try handle.seekToEnd()
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return LocalProcess(process: process, directory: directory)
    }

    /// Starts `executable arguments…` as ``start(_:_:in:log:environment:)`` does and waits until `readyURL` answers;
    /// a process that does not is killed and the error rethrown.
    static func startAnswering(
        _ executable: String, _ arguments: [String], in directory: URL, log: String,
        environment: [String: String] = [:], readyURL: String
    ) async throws -> LocalProcess {
        let process = try start(executable, arguments, in: directory, log: log, environment: environment)
        do {
            try await waitUntilAnswering(readyURL, seconds: 20)
        } catch {
            process.stop()
            throw error
        }
        return process
    }

    /// Kills the process (SIGKILL) and waits for it.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Asks the process to stop (SIGTERM), waits for it, and returns its exit status.
    @discardableResult func terminate() -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// ``terminate()`` waited for on a thread of its own rather than one of the few of the cooperative pool, which a
    /// server of the test's own (an OTLP collector) needs to answer that process's last requests.
    func terminateOffPool() async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: self.terminate()) }
        }
    }

    /// `environment` without its `AWS_` variables and with shared AWS files that do not exist, and without Google's
    /// and Azure's credential variables, so a child process never reads the credentials or profiles of the machine
    /// running the tests (a test that turns on GCS without a key also sets `HOME`, for gcloud's file).
    static func hermetic(_ environment: [String: String]) -> [String: String] {
        var environment = environment.filter {
            !$0.key.hasPrefix("AWS_") && !$0.key.hasPrefix("AZURE_") && !$0.key.hasPrefix("IDENTITY_")
                && !["GOOGLE_APPLICATION_CREDENTIALS", "GCE_METADATA_HOST"].contains($0.key)
        }
        environment["AWS_SHARED_CREDENTIALS_FILE"] = "/nonexistent/webimage-tests/aws-credentials"
        environment["AWS_CONFIG_FILE"] = "/nonexistent/webimage-tests/aws-config"
        return environment
    }

    /// A fresh temporary directory.
    static func temporaryDirectory(_ prefix: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago (and, with `gap`, `port + gap` too).
    static func freePort(gap: Int? = nil) throws -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 20_000...30_000)
            if isFree(port) && gap.map({ isFree(port + $0) }) ?? true { return port }
        }
        throw LocalProcessError.noFreePort
    }

    private static func isFree(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Waits until `url` answers any HTTP status, for at most `seconds`.
    static func waitUntilAnswering(_ url: String, seconds: Double) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let request = HTTPClientRequest(url: url)
            if (try? await HTTPClient.shared.execute(request, timeout: .milliseconds(500))) != nil { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw LocalProcessError.notReady(url)
    }
}

enum LocalProcessError: Error {
    case noFreePort
    case notReady(String)
    case missing(String)
}
