import Foundation

/// The process environment, from which the commands take what their flags leave out.
///
/// `webimage serve` reads it through its table of settings (``Settings``); `webimage url` through ``string(_:)`` and
/// ``list(_:)``.
enum Env {
    /// The value of the variable `name`, `nil` when it is unset or empty.
    static func value(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The value of `WEBIMAGE_<name>`.
    static func string(_ name: String) -> String? { value("WEBIMAGE_" + name) }

    /// The comma-separated list of `WEBIMAGE_<name>`; empty when unset.
    static func list(_ name: String) -> [String] {
        string(name).map { $0.split(separator: ",").map(String.init) } ?? []
    }
}
