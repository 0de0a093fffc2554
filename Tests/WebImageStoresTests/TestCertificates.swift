import Foundation

/// A certificate authority made for one test with the `openssl` command (P-256 keys, valid a day), and the
/// certificates it signs: a server's for 127.0.0.1 and localhost and a client's, each with its key, all PEM files in `directory`.
struct TestCertificates {
    /// Why a certificate could not be made.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let directory: URL
    let name: String

    /// Makes the authority `name` and its server and client certificates in `directory`.
    init(_ name: String, in directory: URL) throws {
        self.directory = directory
        self.name = name
        try run(
            [
                "req", "-x509", "-nodes", "-days", "1", "-subj", "/CN=\(name) CA", "-keyout", "\(name)-ca.key", "-out",
                "\(name)-ca.pem",
            ] + Self.key)
        try sign("server", extensions: "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
        try sign("client", extensions: "extendedKeyUsage=clientAuth\n")
    }

    /// The PEM text of `file`: `ca.pem`, `server.pem`, `server.key`, `client.pem`, `client.key`.
    func pem(_ file: String) throws -> String {
        try String(contentsOf: url(file), encoding: .utf8)
    }

    /// The path of `file` (as ``pem(_:)`` names it).
    func url(_ file: String) -> URL { directory.appendingPathComponent("\(name)-\(file)") }

    private static let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"]

    private func sign(_ role: String, extensions: String) throws {
        try Data(extensions.utf8).write(to: url("\(role).ext"))
        try run(
            [
                "req", "-new", "-nodes", "-subj", "/CN=\(role)", "-keyout", "\(name)-\(role).key", "-out",
                "\(name)-\(role).csr",
            ] + Self.key)
        try run([
            "x509", "-req", "-days", "1", "-in", "\(name)-\(role).csr", "-CA", "\(name)-ca.pem", "-CAkey",
            "\(name)-ca.key", "-set_serial", "\(role == "server" ? 2 : 3)", "-extfile", "\(name)-\(role).ext",
            "-out", "\(name)-\(role).pem",
        ])
    }

    private func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "openssl \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
    }
}
