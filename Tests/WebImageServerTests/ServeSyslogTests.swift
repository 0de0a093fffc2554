import AsyncHTTPClient
import Foundation
import Testing

/// imgproxy's `IMGPROXY_SYSLOG_*` on a real `webimage serve`: lines at or above the syslog level go to the daemon
/// (here a UDP socket of the test's own on 127.0.0.1) as Go's `log/syslog` writes them, whatever the output's level;
/// a daemon that cannot be reached stops the start, as in imgproxy.
@Suite struct ServeSyslogTests {
    @Test func linesAtTheSyslogLevelGoToTheDaemonWhateverTheOutputsLevel() async throws {
        let daemon = try SyslogDaemon()
        let errors = try await ServeLifecycleTests.serve(environment: [
            "IMGPROXY_SYSLOG_ENABLE": "true", "IMGPROXY_SYSLOG_NETWORK": "udp",
            "IMGPROXY_SYSLOG_ADDRESS": "127.0.0.1:\(daemon.port)", "IMGPROXY_SYSLOG_TAG": "wis-test",
            "IMGPROXY_SYSLOG_LEVEL": "info", "IMGPROXY_LOG_LEVEL": "warn", "IMGPROXY_LOG_FORMAT": "structured",
        ]) { base in
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: base + "/insecure/w:10/plain/"), timeout: .seconds(10))
            #expect(response.status.code == 404)
        }
        let messages = await ServeLifecycleTests.offPool { daemon.messages() }
        let request = messages.first { $0.contains("msg=request") }
        #expect(request?.hasPrefix("<6>") == true, "\(messages)")
        #expect(request?.contains(" wis-test[") == true && request?.contains("status=404") == true)
        #expect(request?.hasSuffix("\n") == true)
        // The output's level is warn: the request line went to syslog only.
        #expect(!errors.contains("msg=request"), "\(errors)")
    }

    @Test func syslogAtWarnGetsNoRequestLines() async throws {
        let daemon = try SyslogDaemon()
        _ = try await ServeLifecycleTests.serve(environment: [
            "IMGPROXY_SYSLOG_ENABLE": "true", "IMGPROXY_SYSLOG_NETWORK": "udp",
            "IMGPROXY_SYSLOG_ADDRESS": "127.0.0.1:\(daemon.port)", "IMGPROXY_SYSLOG_LEVEL": "warn",
            "IMGPROXY_NO_SUCH_SETTING": "1",
        ]) { base in
            _ = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: base + "/insecure/w:10/plain/"), timeout: .seconds(10))
        }
        let messages = await ServeLifecycleTests.offPool { daemon.messages() }
        #expect(!messages.contains { $0.contains("request") && !$0.contains("IMGPROXY_") }, "\(messages)")
        // The start-up warning naming the unknown variable is a warning: it is sent, severity 4, tag imgproxy.
        #expect(messages.contains { $0.hasPrefix("<4>") && $0.contains(" imgproxy[") && $0.contains("NO_SUCH") })
    }

    @Test(arguments: [
        [
            "IMGPROXY_SYSLOG_ENABLE": "true", "IMGPROXY_SYSLOG_NETWORK": "unix",
            "IMGPROXY_SYSLOG_ADDRESS": "/nonexistent",
        ],
        ["IMGPROXY_SYSLOG_ENABLE": "true", "IMGPROXY_SYSLOG_NETWORK": "udp"],
        [
            "IMGPROXY_SYSLOG_ENABLE": "true", "IMGPROXY_SYSLOG_NETWORK": "carrier-pigeon",
            "IMGPROXY_SYSLOG_ADDRESS": "a",
        ],
        ["IMGPROXY_SYSLOG_ENABLE": "true", "IMGPROXY_SYSLOG_LEVEL": "loud"],
    ])
    func anUnreachableOrMisconfiguredDaemonStopsTheStart(environment: [String: String]) async throws {
        let (status, error) = try await ServeLifecycleTests.runOffPool([], environment: environment)
        #expect(status == 64, "\(environment): \(error)")
        #expect(error.contains("syslog") || error.contains("SYSLOG"), "\(error)")
    }
}

/// A UDP socket on 127.0.0.1 standing in for a syslog daemon.
final class SyslogDaemon: Sendable {
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        try #require(descriptor >= 0 && bound)
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    /// The messages received so far, waiting up to 200 ms for each.
    func messages() -> [String] {
        var messages: [String] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { return messages }
            messages.append(String(decoding: buffer.prefix(count), as: UTF8.self))
        }
    }
}
