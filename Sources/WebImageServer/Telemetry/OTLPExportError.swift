/// Why a collector did not take an export.
package enum OTLPExportError: Error, CustomStringConvertible {
    /// The export took longer than its timeout.
    case timedOut(Duration)
    /// An OTLP/HTTP collector answered this status.
    case refused(UInt)
    /// The configuration names no usable collector (a bad endpoint, a certificate without its key).
    case invalidConfiguration(String)
    /// zlib could not gzip the body (its return code).
    case compressionFailed(Int32)

    package var description: String {
        switch self {
        case .timedOut(let timeout): "no answer within \(timeout)"
        case .refused(let status): "the collector answered HTTP \(status)"
        case .invalidConfiguration(let reason): reason
        case .compressionFailed(let code): "zlib could not compress the export (code \(code))"
        }
    }
}
