import ArgumentParser
import Foundation

/// `WEBIMAGE_<NAME>` environment variables, the defaults of `webimage serve`'s options.
///
/// The typed readers give `nil` for a value that does not parse, so that an option's default can be computed while
/// the arguments are parsed; ``validate()`` then refuses such a value at start (exit 64) instead of letting the
/// option fall back to its default without a word.
enum Env {
    /// What a typed variable must hold.
    enum Kind {
        case integer, number, boolean, allocator
    }

    /// The variables read as numbers, booleans or an allocator name, and what each must hold.
    static let typed: [String: Kind] = [
        "PORT": .integer, "MEMORY_CACHE_SIZE": .integer, "WORKERS": .integer, "QUEUE_SIZE": .integer,
        "MAX_SRC_FILE_SIZE": .integer, "MAX_ANIMATION_FRAMES": .integer, "MAX_RESULT_DIMENSION": .integer,
        "TTL": .integer, "QUEUE_TIMEOUT": .number, "SHUTDOWN_TIMEOUT": .number, "MAX_SRC_RESOLUTION": .number,
        "DOWNLOAD_TIMEOUT": .number, "TIMEOUT": .number, "SHARED_STORE_TIMEOUT": .number, "AUTO_WEBP": .boolean,
        "AUTO_AVIF": .boolean, "NO_CACHE": .boolean, "NO_RESULT_CACHE": .boolean, "ALLOW_LOOPBACK_SOURCES": .boolean,
        "ALLOW_PRIVATE_SOURCES": .boolean, "ALLOW_LINK_LOCAL_SOURCES": .boolean, "MALLOC": .allocator,
    ]

    static let trueWords: Set = ["1", "true", "yes", "on"]
    static let falseWords: Set = ["0", "false", "no", "off"]

    static func string(_ name: String) -> String? {
        ProcessInfo.processInfo.environment["WEBIMAGE_" + name].flatMap { $0.isEmpty ? nil : $0 }
    }

    static func int(_ name: String) -> Int? { string(name).flatMap { Int($0) } }

    static func double(_ name: String) -> Double? { string(name).flatMap { Double($0) } }

    static func bool(_ name: String) -> Bool? {
        guard let value = string(name)?.lowercased() else { return nil }
        return trueWords.contains(value) ? true : falseWords.contains(value) ? false : nil
    }

    static func list(_ name: String) -> [String] {
        string(name).map { $0.split(separator: ",").map(String.init) } ?? []
    }

    /// Refuses a typed variable whose value does not parse, naming it and what it must hold.
    static func validate() throws {
        for (name, kind) in typed.sorted(by: { $0.key < $1.key }) {
            guard let value = string(name) else { continue }
            let valid: Bool
            let expected: String
            switch kind {
            case .integer: (valid, expected) = (Int(value) != nil, "an integer")
            case .number: (valid, expected) = (Double(value) != nil, "a number")
            case .boolean: (valid, expected) = (bool(name) != nil, "one of 1, true, yes, on, 0, false, no, off")
            case .allocator:
                (valid, expected) = (MemoryAllocator(rawValue: value) != nil, "tuned or glibc")
            }
            guard valid else { throw ValidationError("WEBIMAGE_\(name)=\(value): must be \(expected)") }
        }
    }
}
