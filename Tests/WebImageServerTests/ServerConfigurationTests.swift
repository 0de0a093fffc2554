import Foundation
import Testing
import WebImage

@testable import WebImageServer

/// ``ImageServerConfiguration/validate()``: an app that mounts the server gets the checks `webimage serve` makes,
/// each naming its setting.
@Suite("Server: configuration checks")
struct ServerConfigurationTests {
    static let cases: [(String, @Sendable (inout ImageServerConfiguration) -> Void)] = [
        ("workers", { $0.limits.processingSlots = 0 }),
        ("workers", { $0.limits.processingSlots = 1025 }),
        ("queue-size", { $0.limits.processingQueue = -1 }),
        ("max-src-resolution", { $0.limits.maxSourceResolution = 0 }),
        ("max-src-file-size", { $0.limits.maxSourceFileSize = 0 }),
        ("max-animation-frames", { $0.limits.maxAnimationFrames = -3 }),
        ("max-result-dimension", { $0.limits.maxResultDimension = 70_000 }),
        ("max-redirects", { $0.limits.maxRedirects = -1 }),
        ("max-redirects", { $0.limits.maxRedirects = 101 }),
        ("download-timeout", { $0.limits.downloadTimeout = .zero }),
        ("timeout", { $0.limits.requestTimeout = .seconds(86_401) }),
        ("queue-timeout", { $0.limits.queueTimeout = .seconds(-1) }),
        ("memory-cache-size", { $0.resultMemoryCacheSize = -1 }),
        ("ttl", { $0.ttl = -1 }),
        ("preferred-formats", { $0.preferredFormats = [] }),
        ("preferred-formats", { $0.preferredFormats = [.unknown] }),
        ("peer-forward", { $0.forwardsToOwner = true }),
    ]

    @Test(arguments: cases.indices)
    func aSettingOutOfRangeIsNamed(index: Int) throws {
        let (setting, change) = Self.cases[index]
        var configuration = ImageServerConfiguration()
        change(&configuration)
        #expect(throws: ImageServerConfigurationError.self) { try configuration.validate() }
        do {
            _ = try ImageServer(configuration: configuration)
            Issue.record("the server was built with an invalid \(setting)")
        } catch {
            #expect(error.setting == setting)
            #expect(error.description.hasPrefix("--\(setting) "))
        }
    }

    @Test func theDefaultsAndTheirEdgesPass() throws {
        try ImageServerConfiguration().validate()
        var edges = ImageServerConfiguration()
        edges.limits.processingSlots = 1024
        edges.limits.processingQueue = 0
        edges.limits.maxResultDimension = 65_535
        edges.limits.maxRedirects = 0
        edges.limits.requestTimeout = ServerLimits.longestTimeout
        edges.resultMemoryCacheSize = ImageServerConfiguration.largestMemoryCache
        edges.ttl = 0
        try edges.validate()
    }

    @Test func downloadsMayRunForEverySlotAndQueuePlace() {
        var limits = ServerLimits()
        limits.processingSlots = 3
        limits.processingQueue = 61
        #expect(SourceFetcher.downloadLimit(limits) == 64)
        limits.processingQueue = .max
        #expect(SourceFetcher.downloadLimit(limits) == .max)
    }
}
