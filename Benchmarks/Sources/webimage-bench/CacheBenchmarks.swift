import Foundation
import WebImage

/// `webimage-bench cache`: the memory and disk cache numbers recorded in docs/benchmarks.md (Caching).
enum CacheBenchmarks {
    static func run() async throws {
        print("# cache benchmarks (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
        memory()
        try await disk()
    }

    // MARK: Memory

    static func memory() {
        let cache = MemoryImageCache()
        let image = Image(pixels: PixelBuffer(width: 16, height: 16, filledWith: .white))
        let hits = (0..<1024).map { "https://example.com/images/\($0).png" }
        let misses = (0..<1024).map { "https://example.com/absent/\($0).png" }
        for key in hits { cache.setImage(image, forKey: key) }
        let operations = 2_000_000
        for (name, keys) in [("hit", hits), ("miss", misses)] {
            for threads in [1, 2] {
                let seconds = parallel(threads) {
                    var found = 0
                    for index in 0..<operations where cache.image(forKey: keys[index & 1023]) != nil { found += 1 }
                    precondition(found == (name == "hit" ? operations : 0))
                }
                report("memory \(name), \(threads) thread(s)", nanoseconds: seconds * 1e9 / Double(operations))
            }
        }
        let store = 1_000_000
        let seconds = time {
            for index in 0..<store { cache.setImage(image, forKey: hits[index & 1023]) }
        }
        report("memory set (replace), 1 thread", nanoseconds: seconds * 1e9 / Double(store))
    }

    // MARK: Disk

    static func disk() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let config = DiskCache.Configuration(sweepInterval: nil)
        let cache = DiskCache(directory: root.appendingPathComponent("entries"), configuration: config)

        // A 50 KB PNG: 128×130 opaque pixels of noise.
        var generator = SystemRandomNumberGenerator()
        let noise = PixelBuffer(
            width: 128, height: 130,
            bytes: (0..<128 * 130 * 4).map { index in
                index % 4 == 3 ? 255 : UInt8.random(in: 0...255, using: &generator)
            })
        let png = try ImageCoders.default.encode(Image(pixels: noise), as: .png, options: EncodingOptions())
        try await cache.store(png, forKey: "fifty")
        let file = cache.fileURL(forKey: "fifty")
        print("entry: \(png.count) bytes of PNG, file \(try Data(contentsOf: file).count) bytes")

        let reads = 5_000
        let plain = time { for _ in 0..<reads { precondition(((try? Data(contentsOf: file))?.count ?? 0) > 0) } }
        report("disk: Data(contentsOf:) of the entry file", nanoseconds: plain * 1e9 / Double(reads))
        // From a task on the global executor (a server's request handler) and from the main actor.
        let fromTask = await Task.detached {
            await asyncTime {
                for _ in 0..<reads {
                    let data = await cache.data(forKey: "fifty")
                    precondition(data != nil)
                }
            }
        }.value
        report("disk hit: DiskCache.data(forKey:) from a task", nanoseconds: fromTask * 1e9 / Double(reads))
        print(String(format: "  ratio to the plain read: %.2fx", fromTask / plain))
        let fromMain = await readsOnMainActor(cache, reads)
        report("disk hit: DiskCache.data(forKey:) from the main actor", nanoseconds: fromMain * 1e9 / Double(reads))

        let imageCache = ImageCache(disk: cache)
        let decodes = 1_000
        let decoded = await asyncTime {
            for _ in 0..<decodes {
                let result = await imageCache.query(forKey: "fifty", in: .disk, decode: true)
                precondition(result?.image != nil)
            }
        }
        report("disk hit + PNG decode: ImageCache.query(in: .disk)", nanoseconds: decoded * 1e9 / Double(decodes))
        let plainDecode = time {
            for _ in 0..<decodes {
                let data = try! Data(contentsOf: file)
                _ = try? ImageCoders.default.decode(data.suffix(png.count), options: .default)
            }
        }
        report("  vs Data(contentsOf:) + PNG decode", nanoseconds: plainDecode * 1e9 / Double(decodes))

        let stores = 500
        let stored = try await asyncThrowingTime {
            for index in 0..<stores { try await cache.store(png, forKey: "store-\(index)") }
        }
        print(
            pad("disk store (50 KB, fsync each)")
                + String(
                    format: "%10.0f entries/s  %6.1f MB/s",
                    Double(stores) / stored, Double(stores * png.count) / stored / 1e6))

        try await trim(root: root, entry: Data(contentsOf: file))
    }

    @MainActor
    static func readsOnMainActor(_ cache: DiskCache, _ reads: Int) async -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<reads {
            let data = await cache.data(forKey: "fifty")
            precondition(data != nil)
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// 10,000 entries (copies of one entry file under 10,000 names, with spread-out access times).
    static func trim(root: URL, entry: Data) async throws {
        let directory = root.appendingPathComponent("trim")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let count = 10_000
        let base = Date().addingTimeInterval(-100_000)
        let names = DiskCache(directory: directory, configuration: .init(sweepInterval: nil))
        let name = { (index: Int) in names.fileURL(forKey: "trim-\(index)").lastPathComponent }
        let fill = { () throws -> Void in
            for index in 0..<count {
                let url = directory.appendingPathComponent(name(index))
                try entry.write(to: url)
                try FileManager.default.setAttributes(
                    [.modificationDate: base.addingTimeInterval(Double(index))], ofItemAtPath: url.path)
            }
        }
        try fill()
        let plainUnlink = time {
            for index in 0..<count { unlink(directory.appendingPathComponent(name(index)).path) }
        }
        report("baseline: unlink(2) of 10,000 files", nanoseconds: plainUnlink * 1e9, unit: "ms")
        for (label, limit) in [
            ("5% over the limit", entry.count * count * 100 / 105),
            ("2x over the limit", entry.count * count / 2),
        ] {
            try fill()
            let cache = DiskCache(directory: directory, configuration: .init(maxSize: limit, sweepInterval: nil))
            var removed = 0
            let seconds = await asyncTime { removed = await cache.trim() }
            report("trim 10,000 entries \(label) to 80% (\(removed) deleted)", nanoseconds: seconds * 1e9, unit: "ms")
        }
        try fill()
        let cache = DiskCache(directory: directory, configuration: .init(sweepInterval: nil))
        let scan = await asyncTime { _ = await cache.trim() }
        report("trim 10,000 entries under the limit (scan only)", nanoseconds: scan * 1e9, unit: "ms")
        var removed = 0
        let full = await asyncTime { removed = await cache.trim(toSize: 0) }
        report("trim 10,000 entries to 0 (\(removed) deleted)", nanoseconds: full * 1e9, unit: "ms")
    }

    // MARK: Timing

    static func report(_ name: String, nanoseconds: Double, unit: String = "ns") {
        let value = unit == "ms" ? nanoseconds / 1e6 : nanoseconds
        print(pad(name) + String(format: "%10.1f ", value) + unit + "/op")
    }

    static func pad(_ name: String) -> String { name.padding(toLength: 60, withPad: " ", startingAt: 0) }

    static func time(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    static func asyncTime(_ body: () async -> Void) async -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        await body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    static func asyncThrowingTime(_ body: () async throws -> Void) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Runs `body` on `threads` threads at once; returns the wall time.
    static func parallel(_ threads: Int, _ body: @escaping @Sendable () -> Void) -> Double {
        let group = DispatchGroup()
        return time {
            for _ in 0..<threads { DispatchQueue.global().async(group: group, execute: body) }
            group.wait()
        }
    }
}
