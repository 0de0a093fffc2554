import ArgumentParser
import Foundation
import WebImage

/// `webimage cache info|clean|clear [--cache-dir DIR]`: look at and tidy the disk cache.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show, clean or clear the disk cache.",
        discussion: """
            The cache is the directory `fetch` and `prefetch` use (--cache-dir, default \
            $XDG_CACHE_HOME/swift-web-image/default or ~/.cache/swift-web-image/default): one file per entry.

            Examples:
              webimage cache info
              webimage cache clean --cache-dir /tmp/thumbs
              webimage cache clear
            """,
        subcommands: [Info.self, Clean.self, Clear.self],
        defaultSubcommand: Info.self
    )

    struct Info: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the cache's directory, size, entry count and least recently used entry.",
            discussion: """
                An entry's file modification time is its last use, so "oldest" is the entry trimming would delete first.

                Examples:
                  webimage cache info
                  webimage cache info --cache-dir /tmp/thumbs --json
                """)

        @OptionGroup var cache: CacheOptions

        @Flag(help: "Print {directory, bytes, count, oldest} as JSON (oldest: ISO 8601 or null).")
        var json = false

        func run() async throws {
            let disk = cache.diskCache()
            let size = await disk.totalSize()
            let count = await disk.count()
            let oldest = CacheCommand.oldestEntry(in: disk.directory)
            let oldestText = oldest.map { $0.ISO8601Format() }
            if json {
                let fields: [String] = [
                    "\"directory\":\(CacheCommand.quoted(disk.directory.path))", "\"bytes\":\(size)",
                    "\"count\":\(count)",
                    "\"oldest\":\(oldestText.map(CacheCommand.quoted) ?? "null")",
                ]
                print("{" + fields.joined(separator: ",") + "}")
            } else {
                print("directory: \(disk.directory.path)")
                print("size:      \(ByteText.format(size)) (\(size) bytes)")
                print("entries:   \(count)")
                print("oldest:    \(oldestText ?? "-")")
            }
        }
    }

    struct Clean: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove expired entries (older than 7 days), then trim the cache below its size limit (1 GiB).",
            discussion: """
                Examples:
                  webimage cache clean
                  webimage cache clean --max-size 100000000
                """)

        @OptionGroup var cache: CacheOptions

        @Option(help: "Trim to at most this many bytes instead of the default limit.")
        var maxSize: Int?

        func run() async throws {
            let disk = cache.diskCache()
            let before = await disk.totalSize()
            let expired = await disk.removeExpired()
            let trimmed: Int
            if let maxSize {
                trimmed = await disk.trim(toSize: maxSize)
            } else {
                trimmed = await disk.trim()
            }
            let after = await disk.totalSize()
            print(
                "removed \(expired) expired and \(trimmed) trimmed entries; \(ByteText.format(before)) -> \(ByteText.format(after))"
            )
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove every entry of the cache.",
            discussion: """
                Files in the directory that are not cache entries are left alone.

                Examples:
                  webimage cache clear
                  webimage cache clear --cache-dir /tmp/thumbs
                """)

        @OptionGroup var cache: CacheOptions

        func run() async throws {
            let disk = cache.diskCache()
            let count = await disk.count()
            let size = await disk.totalSize()
            await disk.removeAll()
            print("removed \(count) entries (\(ByteText.format(size))) from \(disk.directory.path)")
        }
    }

    /// The least recent modification time (last use) of the entries in `directory`.
    static func oldestEntry(in directory: URL) -> Date? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter(isEntryName).compactMap { name in
            try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[
                .modificationDate]
                as? Date
        }.min()
    }

    /// Entry files are named by the 64 lowercase hex digits of their key's SHA-256.
    private static func isEntryName(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    static func quoted(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}

/// Human-readable byte counts and durations.
enum ByteText {
    static func format(_ bytes: Int) -> String { format(Double(bytes)) }

    static func format(_ bytes: Double) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = bytes
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(Int(value)) B" : String(format: "%.1f", value) + " " + units[unit]
    }

    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "--:--" }
        let total = Int(seconds.rounded())
        return total >= 3600
            ? String(format: "%d:%02d:%02d", total / 3600, total / 60 % 60, total % 60)
            : String(format: "%02d:%02d", total / 60, total % 60)
    }
}
