import Foundation
import Testing

@testable import WebImage

/// The namespace of the caching suites, so that `swift test --filter Caching` selects them.
enum CachingTests {}

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let current: Locked<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Locked(start) }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }

    /// The closure to inject.
    var function: @Sendable () -> Date { { [self] in now } }
}

/// A fresh directory under the system temporary directory, removed by ``remove()``.
struct TemporaryDirectory: ~Copyable {
    let url: URL

    init(_ name: String = #function) {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("webimage-\(safe)-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var path: String { url.path }

    func appending(_ component: String) -> URL { url.appendingPathComponent(component) }

    deinit { try? FileManager.default.removeItem(at: url) }
}

enum CacheFixtures {
    /// A solid image of `width` × `height` pixels; its cost is `width * height * 4`.
    static func image(_ width: Int = 4, _ height: Int = 4, _ color: RGBA = .white) -> Image {
        Image(pixels: PixelBuffer(width: width, height: height, filledWith: color))
    }

    /// A disk cache without background sweeping.
    static func disk(
        _ directory: URL, clock: TestClock = TestClock(), maxAge: TimeInterval = 7 * 24 * 3600,
        maxSize: Int = 1 << 30, readOnly: [URL] = []
    ) -> DiskCache {
        DiskCache(
            directory: directory,
            configuration: DiskCache.Configuration(
                maxAge: maxAge, maxSize: maxSize, readOnlyDirectories: readOnly, sweepInterval: nil),
            clock: clock.function)
    }

    /// The names of the files in `directory`.
    static func files(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    /// The helper executable built next to the test binary, if any.
    static var writerExecutable: URL? {
        let names = ["webimage-cache-writer"]
        var candidates = [
            Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ]
        candidates += candidates.map { $0.deletingLastPathComponent() }
        for directory in candidates {
            for name in names {
                let url = directory.appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: url.path) { return url }
            }
        }
        return nil
    }

    /// Mounts a tmpfs of `size` bytes on `directory` (root only); `false` when not permitted here.
    static func mountTmpfs(_ directory: String, size: Int) -> Bool {
        run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", directory]) == 0
    }

    static func remountReadOnly(_ directory: String) -> Bool {
        run("/bin/mount", ["-o", "remount,ro", directory]) == 0
    }

    static func unmount(_ directory: String) {
        _ = run("/bin/umount", [directory])
    }

    /// Whether tmpfs mounts work here (root in a container that allows them).
    static let canMount: Bool = {
        guard geteuid() == 0 else { return false }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-probe-\(UUID())").path
        try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard mountTmpfs(probe, size: 65_536) else { return false }
        unmount(probe)
        return true
    }()

    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
