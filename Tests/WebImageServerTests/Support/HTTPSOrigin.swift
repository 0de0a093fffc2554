import Foundation
import Testing

/// An HTTPS origin on 127.0.0.1 serving the files of a directory, with a self-signed certificate for `localhost`
/// (so a client that checks certificates refuses it): openssl's `s_server -WWW`, as an administrator would start one.
// `port` and `process` are set once in init; `stop()` is called once, by the test that made it.
final class HTTPSOrigin: @unchecked Sendable {
    let port: Int
    private let process: Process

    init(directory: URL) throws {
        let key = directory.appendingPathComponent("key.pem").path
        let certificate = directory.appendingPathComponent("cert.pem").path
        let request = Process()
        request.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        request.arguments = [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days", "1", "-keyout", key,
            "-out", certificate,
        ]
        request.standardError = FileHandle.nullDevice
        try request.run()
        request.waitUntilExit()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["s_server", "-cert", certificate, "-key", key, "-accept", "127.0.0.1:0", "-WWW"]
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // `ACCEPT 127.0.0.1:PORT` once it listens, after a line about its parameters.
        var text = ""
        while !text.contains("ACCEPT"), case let chunk = output.fileHandleForReading.availableData, !chunk.isEmpty {
            text += String(decoding: chunk, as: UTF8.self)
        }
        let line = text.split(separator: "\n").first { $0.hasPrefix("ACCEPT") } ?? ""
        port = try #require(Int(line.split(separator: ":").last?.prefix { $0.isNumber } ?? ""), "\(text)")
    }

    /// Kills the server: SIGKILL, since the test process's blocked signals (SIGTERM among them) are inherited.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
