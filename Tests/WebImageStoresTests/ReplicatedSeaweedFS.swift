import Foundation

@testable import WebImageStores

/// SeaweedFS as separate processes with every object stored twice: a master with `-defaultReplication=001`, two
/// volume servers in one rack, and a filer with the S3 gateway. For the store-failure test: one volume server can die.
struct ReplicatedSeaweedFS {
    let master: LocalProcess
    let volumes: [LocalProcess]
    let filer: LocalProcess
    let endpoint: URL
    let credentials = S3Credentials(accessKey: "webimage-test", secretKey: "webimage-test-secret")

    static func start() async throws -> ReplicatedSeaweedFS {
        let weed = SeaweedFS.executable
        guard FileManager.default.isExecutableFile(atPath: weed) else {
            throw LocalProcessError.missing("\(weed): run `make test`, which installs SeaweedFS")
        }
        let directory = try LocalProcess.temporaryDirectory("seaweedfs-replicated")
        try Data(SeaweedFS.identities.utf8).write(to: directory.appendingPathComponent("s3.json"))
        // gRPC listens on port + 10000, so every port needs that one free too.
        let ports = try (0..<5).map { _ in try LocalProcess.freePort(gap: 10_000) }
        var started: [LocalProcess] = []
        do {
            for name in ["master", "volume1", "volume2", "filer"] {
                try FileManager.default.createDirectory(
                    at: directory.appendingPathComponent(name), withIntermediateDirectories: true)
            }
            let master = "127.0.0.1:\(ports[0])"
            started.append(
                try LocalProcess.start(
                    weed,
                    [
                        "master", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-port=\(ports[0])",
                        "-mdir=\(directory.appendingPathComponent("master").path)", "-defaultReplication=001",
                        "-volumeSizeLimitMB=64",
                    ], in: directory, log: "master"))
            for index in 1...2 {
                started.append(
                    try LocalProcess.start(
                        weed,
                        [
                            "volume", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-port=\(ports[index])",
                            "-dir=\(directory.appendingPathComponent("volume\(index)").path)", "-master=\(master)",
                            "-rack=r1", "-dataCenter=dc1", "-max=20",
                        ], in: directory, log: "volume\(index)"))
            }
            started.append(
                try LocalProcess.start(
                    weed,
                    [
                        "filer", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-port=\(ports[3])", "-master=\(master)",
                        "-s3", "-s3.port=\(ports[4])", "-s3.port.iceberg=0", "-s3.port.lance=0",
                        "-s3.config=\(directory.appendingPathComponent("s3.json").path)",
                    ], in: directory, log: "filer"))
            let endpoint = URL(string: "http://127.0.0.1:\(ports[4])")!
            try await LocalProcess.waitUntilAnswering(endpoint.absoluteString + "/", seconds: 30)
            return ReplicatedSeaweedFS(
                master: started[0], volumes: Array(started[1...2]), filer: started[3], endpoint: endpoint)
        } catch {
            for process in started { process.stop() }
            throw error
        }
    }

    func stop() {
        for process in [filer] + volumes + [master] { process.stop() }
    }
}
