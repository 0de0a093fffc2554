import ArgumentParser
import Foundation
import WebImageServer

/// imgproxy's `IMGPROXY_ENV_LOCAL_FILE_PATH`: a file of variables set in the environment before any other setting is
/// read, over the variables already set, as imgproxy's `env.Load` sets them.
extension Settings {
    static let envLocalFilePath = Setting<String>(
        "env-local-file-path", .text, imgproxy: ["IMGPROXY_ENV_LOCAL_FILE_PATH"])

    /// The environment file's setting, for ``all``.
    static let environmentFile: [any SettingVariables] = [envLocalFilePath]

    /// Sets the variables of the file at `path` (`--env-local-file-path`, else its variables) in the environment,
    /// replacing those already set. A path that names no file loads nothing, as in imgproxy (whose check of the path
    /// fails without stopping it); the warning to log then is returned.
    ///
    /// - Throws: `ValidationError` for a file that cannot be read, a line that is not `KEY=value`, or a key that
    ///   cannot be a variable's name.
    static func loadEnvironmentFile(flag path: String?) throws -> String? {
        guard let path = try envLocalFilePath.resolve(path) else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return "--env-local-file-path: \(path) is not a file; no variables were read from it"
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("--env-local-file-path: cannot read \(path)")
        }
        let entries: [(name: String, value: String)]
        do {
            entries = try EnvironmentFile.parse(
                String(decoding: data, as: UTF8.self), environment: ProcessInfo.processInfo.environment)
        } catch { throw ValidationError("--env-local-file-path: \(path): \(error)") }
        for (name, value) in entries {
            guard !name.isEmpty, !name.contains("="), !name.contains("\0"), setenv(name, value, 1) == 0 else {
                throw ValidationError("--env-local-file-path: \(path): cannot set the variable '\(name)'")
            }
        }
        return nil
    }
}
