import Dispatch
import Foundation
import Testing
import WebImageTesting

@testable import WebImage

/// Host names for tests, answered from a table; records every question.
///
/// The names are numeric spellings of 127.0.0.x (`0x7f000003`): were the loader ever to skip this resolver, the
/// system would read them as loopback addresses without asking DNS, so not even a broken loader sends a packet
/// off the machine, and the test fails on the wrong answer instead.
final class TestResolver: Sendable {
    let answers: [String: [String]]
    let questions = Locked<[String]>([])

    init(_ answers: [String: [String]] = [:]) { self.answers = answers }

    var resolver: HostResolver {
        HostResolver { [self] host in
            questions.withLock { $0.append(host) }
            guard let texts = answers[host] else {
                throw WebImageError(.connectionFailed, "no test answer for '\(host)'")
            }
            return texts.compactMap { IPAddress(literal: $0) }
        }
    }

    var asked: [String] { questions.withLock { $0 } }
}

/// Runs `body` with a started test server and a loader under `policy`, resolving with `resolver` (the system one
/// by default: only for `localhost` and numeric hosts, which `getaddrinfo` answers from /etc/hosts or the text).
func withPolicyServer<T>(
    _ policy: SourceAddressPolicy, resolver: HostResolver = .system,
    _ body: (TestImageServer, HTTPImageLoader) async throws -> T
) async throws -> T {
    let server = TestImageServer()
    try await server.start()
    var configuration = HTTPImageLoader.Configuration()
    configuration.addressPolicy = policy
    let loader = HTTPImageLoader(configuration: configuration, resolver: resolver)
    do {
        let result = try await body(server, loader)
        try await loader.shutdown()
        try await server.shutdown()
        return result
    } catch {
        try? await loader.shutdown()
        try? await server.shutdown()
        throw error
    }
}

/// `http://HOST:PORT/PATH` on the test server's port; hosts and paths here are fixed, valid URL text.
func hostURL(_ host: String, _ server: TestImageServer, _ path: String = "/generated/a") -> URL {
    URL(string: "http://\(host):\(server.port)\(path)")!
}

/// `text` percent-encoded for a query value.
func escaped(_ text: String) throws -> String {
    try #require(text.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
}

@Suite("Loading: source address policy")
struct LoadingAddressPolicyTests {
    static let loopback = SourceAddressPolicy(allowsLoopback: true)

    /// Loopback as a literal, a name, and every spelling that connects to loopback.
    static let loopbackHosts = [
        "127.0.0.1", "localhost", "0x7f.1", "2130706433", "127.1", "0177.0.0.1", "[::1]", "[::ffff:127.0.0.1]",
        "[::ffff:7f00:1]",
    ]

    @Test(arguments: loopbackHosts)
    func publicOnlyRefusesLoopbackBeforeConnecting(host: String) async throws {
        try await withPolicyServer(.publicOnly) { server, loader in
            let target = hostURL(host, server)
            let error = await expectError(.forbiddenSource) { () async throws(WebImageError) in
                try await loader.load(target)
            }
            #expect(error?.isTransient == false)
            #expect(error?.url == target)
            #expect(server.stats.total == 0)
        }
    }

    @Test func aNameResolvingToLoopbackIsRefused() async throws {
        let names = TestResolver(["0x7f000003": ["127.0.0.1"], "0x7f000004": ["::1"]])
        try await withPolicyServer(.publicOnly, resolver: names.resolver) { server, loader in
            for host in ["0x7f000003", "0x7f000004"] {
                let error = await expectError(.forbiddenSource) { () async throws(WebImageError) in
                    try await loader.load(hostURL(host, server))
                }
                #expect(error?.message.contains("'\(host)' resolves to") == true, "\(String(describing: error))")
            }
            #expect(names.asked == ["0x7f000003", "0x7f000004"])
            #expect(server.stats.total == 0)
        }
    }

    @Test func aRefusedNameFailsAtOnceThroughTheManagerInsteadOfWaitingForTheTimeout() async throws {
        let names = TestResolver(["0x7f00000c": ["127.0.0.1"]])
        try await withPolicyServer(.publicOnly, resolver: names.resolver) { server, loader in
            let manager = ImageManager(configuration: .init(loader: loader, cache: MemoryImageCache()))
            var options = ImageLoaderOptions()
            options.timeout = .seconds(120)
            let target = hostURL("0x7f00000c", server)
            let error = await expectError(.forbiddenSource) { () async throws(WebImageError) in
                try await manager.image(for: ImageRequest(url: target, loaderOptions: options))
            }
            #expect(error?.isTransient == false)
            #expect(names.asked == ["0x7f00000c"])
            #expect(server.stats.total == 0)
        }
    }

    @Test(arguments: ["127.0.0.1", "localhost", "0x7f.1", "2130706433", "127.1"])
    func allowingLoopbackLoadsFromTheTestServer(host: String) async throws {
        try await withPolicyServer(Self.loopback) { server, loader in
            let response = try await loader.load(hostURL(host, server))
            #expect(response.data.count == 100_000)
            #expect(server.requestCount("/generated/a") == 1)
            let sent = server.stats.lastHeaders["/generated/a"]?.first { $0.name.lowercased() == "host" }?.value
            #expect(sent == "\(host):\(server.port)")
        }
    }

    @Test func theConnectionGoesToTheCheckedAddressNotToAFreshResolution() async throws {
        // Left alone, AsyncHTTPClient would resolve this host itself to 127.0.0.2, where nothing listens. The loader
        // resolves it (here: to the test server's 127.0.0.1), checks that answer and connects exactly there.
        let names = TestResolver(["0x7f000002": ["127.0.0.1"]])
        try await withPolicyServer(Self.loopback, resolver: names.resolver) { server, loader in
            let response = try await loader.load(hostURL("0x7f000002", server))
            #expect(response.data.count == 100_000)
            #expect(server.requestCount("/generated/a") == 1)
            let host = server.stats.lastHeaders["/generated/a"]?.first { $0.name.lowercased() == "host" }?.value
            #expect(host == "0x7f000002:\(server.port)")
            _ = try await loader.load(hostURL("0x7f000002", server, "/generated/b"))
            #expect(names.asked == ["0x7f000002", "0x7f000002"])
            #expect(loader.pinnedClients.count == 1)
        }
    }

    @Test(arguments: [
        "http://10.0.0.1/x", "http://169.254.169.254/latest/meta-data/", "http://[::ffff:10.0.0.1]/x",
        "http://[fd00:ec2::254]/x", "http://0.0.0.0/x", "http://0x7f000005/x",
    ])
    func aRedirectToARefusedAddressIsRefusedBeforeConnecting(location: String) async throws {
        let names = TestResolver(["0x7f000005": ["169.254.169.254"]])
        try await withPolicyServer(Self.loopback, resolver: names.resolver) { server, loader in
            let target = try server.url("/redirect/1?to=\(escaped(location))")
            let error = await expectError(.forbiddenSource) { () async throws(WebImageError) in
                try await loader.load(target)
            }
            #expect(error?.url?.absoluteString == location)
            #expect(error?.isTransient == false)
            #expect(server.stats.total == 1)
        }
    }

    @Test func everyRedirectHopIsResolvedAndCheckedAgain() async throws {
        let names = TestResolver(["0x7f000006": ["127.0.0.1"], "0x7f000007": ["127.0.0.1"], "0x7f000008": ["10.0.0.1"]])
        try await withPolicyServer(Self.loopback, resolver: names.resolver) { server, loader in
            let toB = try escaped("http://0x7f000007:\(server.port)/generated/r")
            let response = try await loader.load(hostURL("0x7f000006", server, "/redirect/1?to=\(toB)"))
            #expect(response.url.host == "0x7f000007")
            #expect(names.asked == ["0x7f000006", "0x7f000007"])
            let toC = try escaped("http://0x7f000008:\(server.port)/generated/r")
            await expectError(.forbiddenSource) { () async throws(WebImageError) in
                try await loader.load(hostURL("0x7f000006", server, "/redirect/1?to=\(toC)"))
            }
            #expect(names.asked == ["0x7f000006", "0x7f000007", "0x7f000006", "0x7f000008"])
            #expect(server.requestCount("/generated/r") == 1)
            #expect(server.requestCount("/redirect/1") == 2)
        }
    }

    @Test func redirectLimitAndLoopDetectionStillHold() async throws {
        try await withPolicyServer(Self.loopback) { server, loader in
            await expectError(.tooManyRedirects) { () async throws(WebImageError) in
                try await loader.load(hostURL("localhost", server, "/loop/a"))
            }
            await expectError(.tooManyRedirects) { () async throws(WebImageError) in
                try await loader.load(hostURL("localhost", server, "/redirect/6?to=/generated/r"))
            }
            let response = try await loader.load(hostURL("localhost", server, "/redirect/5?to=/generated/r"))
            #expect(response.data.count == 100_000)
        }
    }

    @Test func unresolvableAndEmptyNamesAreConnectionFailures() async throws {
        let names = TestResolver(["0x7f000009": []])
        try await withPolicyServer(.publicOnly, resolver: names.resolver) { server, loader in
            for host in ["0x7f00000a", "0x7f000009"] {
                let error = await expectError(.connectionFailed) { () async throws(WebImageError) in
                    try await loader.load(hostURL(host, server))
                }
                #expect(error?.isTransient == true)
            }
            #expect(names.asked == ["0x7f00000a", "0x7f000009"])
            #expect(server.stats.total == 0)
        }
    }

    @Test func aResolutionThatOutlivesTheTimeoutTimesOut() async throws {
        let stuck = HostResolver { _ in
            try await Task.sleep(for: .seconds(3600))
            return []
        }
        try await withPolicyServer(.publicOnly, resolver: stuck) { server, loader in
            var options = ImageLoaderOptions()
            options.timeout = .milliseconds(200)
            await expectError(.timedOut) { () async throws(WebImageError) in
                try await loader.load(hostURL("0x7f00000b", server), options: options)
            }
            #expect(server.stats.total == 0)
        }
    }

    @Test func unrestrictedResolvesNothingItself() async throws {
        let names = TestResolver()
        try await withPolicyServer(.unrestricted, resolver: names.resolver) { server, loader in
            let response = try await loader.load(hostURL("localhost", server))
            #expect(response.data.count == 100_000)
            #expect(names.asked.isEmpty)
            #expect(loader.pinnedClients.count == 0)
        }
    }
}

@Suite("Loading: host resolution")
struct HostResolverTests {
    @Test func aCancelledCallerReturnsWhileTheBlockingCallStillRuns() async throws {
        let release = DispatchSemaphore(value: 0)
        let (entered, signal) = AsyncStream<Void>.makeStream()
        let task = Task {
            try await HostResolver.withBlockingCall { () throws(WebImageError) -> Int in
                signal.yield()
                release.wait()
                return 1
            }
        }
        var iterator = entered.makeAsyncIterator()
        _ = await iterator.next()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        release.signal()
    }

    @Test func aBlockingCallsResultAndErrorReachTheCaller() async throws {
        #expect(try await HostResolver.withBlockingCall { () throws(WebImageError) in 7 } == 7)
        await #expect(throws: WebImageError.self) {
            try await HostResolver.withBlockingCall { () throws(WebImageError) -> Int in
                throw WebImageError(.connectionFailed, "no")
            }
        }
    }
}
