import Foundation
import Testing
import WebImageTesting

@testable import WebImage

extension CachingTests {
    /// Child processes (the `webimage-cache-writer` helper) sharing one directory, and one killed mid-write.
    @Suite("Caching: DiskCache across processes", .serialized)
    struct DiskCacheProcessTests {
        private func writer(_ arguments: [String]) throws -> Process {
            let executable = try #require(CacheFixtures.writerExecutable, "webimage-cache-writer not built")
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            return process
        }

        @Test func twoProcessesWriteAndReadOneDirectory() async throws {
            let directory = TemporaryDirectory()
            let processes = try [
                writer(["hammer", directory.path, "10", "400"]), writer(["hammer", directory.path, "90", "400"]),
            ]
            for process in processes { try process.run() }
            // This process reads alongside them.
            let cache = CacheFixtures.disk(directory.url)
            var damaged = 0
            while processes.contains(where: \.isRunning) {
                for index in 0..<16 {
                    if let data = await cache.data(forKey: "shared-\(index)"), !CacheTestPayload.isIntact(data) {
                        damaged += 1
                    }
                }
            }
            for process in processes {
                process.waitUntilExit()
                #expect(process.terminationReason == .exit && process.terminationStatus == 0)
            }
            #expect(damaged == 0)
            for index in 0..<16 {
                if let data = await cache.data(forKey: "shared-\(index)") { #expect(CacheTestPayload.isIntact(data)) }
            }
            #expect(CacheFixtures.files(in: directory.url).allSatisfy { !$0.hasPrefix(".tmp-") })
        }

        @Test func writerKilledMidWriteLeavesNoReadablePartialEntry() async throws {
            let directory = TemporaryDirectory()
            let clock = TestClock(Date())
            let cache = CacheFixtures.disk(directory.url, clock: clock)
            var killedWhileATemporaryFileExisted = 0
            for round in 0..<6 {
                let process = try writer(["write", directory.path, "big", "\(8 << 20)"])
                let output = Pipe()
                process.standardOutput = output
                try process.run()
                _ = output.fileHandleForReading.availableData  // "ready"
                try await Task.sleep(for: .milliseconds(40 + 37 * round))
                if CacheFixtures.files(in: directory.url).contains(where: { $0.hasPrefix(".tmp-") }) {
                    killedWhileATemporaryFileExisted += 1
                }
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                #expect(process.terminationReason == .uncaughtSignal)
                // Either the last complete entry or nothing: never a torn one.
                if let data = await cache.data(forKey: "big") {
                    #expect(data.count == 8 << 20)
                    #expect(CacheTestPayload.isIntact(data))
                }
            }
            #expect(killedWhileATemporaryFileExisted > 0, "the kills should land mid-write at least once")
            // Leftover temporary files are never served and are swept once stale.
            clock.advance(by: 7200)
            await cache.removeExpired()
            #expect(CacheFixtures.files(in: directory.url).allSatisfy { !$0.hasPrefix(".tmp-") })
        }
    }
}
