import ArgumentParser
import WebImage

/// The documented exit statuses of `webimage` (BSD `sysexits` numbering).
enum ExitStatus {
    static let usage = ExitCode(64)
    static let decode = ExitCode(65)
    static let load = ExitCode(66)
    static let output = ExitCode(73)

    /// The status for a library error.
    static func status(for error: WebImageError) -> ExitCode {
        switch error.code {
        case .unsupportedFormat, .corruptData, .truncatedData, .tooLarge: decode
        case .encodingFailed: output
        case .invalidArgument: usage
        default: load
        }
    }
}
