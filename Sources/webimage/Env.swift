import Foundation

/// `WEBIMAGE_<NAME>` environment variables, the defaults of `webimage serve`'s options.
enum Env {
    static func string(_ name: String) -> String? {
        ProcessInfo.processInfo.environment["WEBIMAGE_" + name].flatMap { $0.isEmpty ? nil : $0 }
    }

    static func int(_ name: String) -> Int? { string(name).flatMap { Int($0) } }

    static func double(_ name: String) -> Double? { string(name).flatMap { Double($0) } }

    static func bool(_ name: String) -> Bool? {
        string(name).map { ["1", "true", "yes", "on"].contains($0.lowercased()) }
    }

    static func list(_ name: String) -> [String] {
        string(name).map { $0.split(separator: ",").map(String.init) } ?? []
    }
}
