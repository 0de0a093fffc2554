import ArgumentParser
import WebImage

/// The documented exit statuses of `webimage` (BSD `sysexits` numbering, and 130 for an interrupt).
enum ExitStatus {
    static let usage = ExitCode(64)
    static let decode = ExitCode(65)
    static let load = ExitCode(66)
    static let output = ExitCode(73)
    static let interrupted = ExitCode(130)

    /// The text shown in `--help` and the README.
    static let help = """
        Exit statuses: 0 success; 64 usage error; 65 the image could not be decoded (corrupt, truncated, \
        unsupported, too large); 66 the source could not be loaded (missing file, HTTP error, timeout); \
        73 the output or the cache could not be written; 130 interrupted (Ctrl-C). When some sources of a batch \
        fail, each failure is reported on standard error and the status of the first one is returned.
        """

    /// The status for a library error.
    static func status(for error: WebImageError) -> ExitCode {
        switch error.code {
        case .unsupportedFormat, .corruptData, .truncatedData, .tooLarge: decode
        case .encodingFailed, .cacheFailure, .writeFailed: output
        case .invalidArgument: usage
        case .cancelled: interrupted
        default: load
        }
    }
}
