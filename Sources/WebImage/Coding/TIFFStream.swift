import CTIFF
import Foundation

/// The client data of a libtiff handle that reads from or writes to memory, and what libtiff reported through it.
///
/// libtiff calls back with this object's address (`thandle_t`) for every read, write and seek, and with the same
/// address for its error messages (per handle, through `TIFFOpenOptions`), so nothing it reports reaches stderr. One
/// stream serves one handle on one thread, from open to close; it is never shared.
final class TIFFStream {
    /// The bytes read, for a decoding handle.
    private let input: UnsafeRawBufferPointer
    /// The bytes written so far, for an encoding handle.
    private(set) var output: [UInt8] = []
    private var position = 0
    /// Whether a read asked for bytes past the end: the file is cut short.
    private(set) var readPastEnd = false
    /// libtiff's first error message on this handle.
    private(set) var message: String?

    /// A stream reading `input`.
    init(reading input: UnsafeRawBufferPointer) { self.input = input }

    /// A stream collecting what libtiff writes.
    init() { input = UnsafeRawBufferPointer(start: nil, count: 0) }

    private var count: Int { max(input.count, output.count) }

    /// Opens a handle on this stream (`mode` "r" or "w"), allocating no single block larger than `maxAllocation`
    /// (0: no limit).
    ///
    /// Once a handle is open, libtiff's messages about it come here; `silenceGlobalHandlers` keeps those it writes
    /// before a handle exists (or with none) off stderr too.
    func open(mode: String, maxAllocation: Int) -> OpaquePointer? {
        _ = Self.silenceGlobalHandlers
        guard let options = TIFFOpenOptionsAlloc() else { return nil }
        defer { TIFFOpenOptionsFree(options) }
        let client = Unmanaged.passUnretained(self).toOpaque()
        TIFFOpenOptionsSetMaxSingleMemAlloc(options, tmsize_t(maxAllocation))
        TIFFOpenOptionsSetErrorHandlerExtR(options, Self.captureError, client)
        TIFFOpenOptionsSetWarningHandlerExtR(options, Self.dropWarning, client)
        return TIFFClientOpenExt(
            "memory", mode + "m", client, Self.read, Self.write, Self.seek, Self.close, Self.size, nil, nil, options)
    }

    /// The error for a failed libtiff call: ``WebImageError/Code/truncatedData`` when a read ran past the end.
    func error(_ what: String) -> WebImageError {
        let detail = message.map { ": \($0)" } ?? ""
        return WebImageError(readPastEnd ? .truncatedData : .corruptData, "\(what)\(detail)")
    }

    private static let silenceGlobalHandlers: Void = {
        TIFFSetErrorHandler(nil)
        TIFFSetWarningHandler(nil)
    }()

    private static func from(_ client: UnsafeMutableRawPointer?) -> TIFFStream? {
        client.map { Unmanaged<TIFFStream>.fromOpaque($0).takeUnretainedValue() }
    }

    private static var captureError: TIFFErrorHandlerExtR {
        { _, client, module, format, arguments in
            guard let stream = TIFFStream.from(client), stream.message == nil, let format, let arguments else {
                return 1
            }
            var buffer = [CChar](repeating: 0, count: 512)
            _ = vsnprintf(&buffer, buffer.count, format, arguments)
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            stream.message = module.map { "\(String(cString: $0)): \(text)" } ?? text
            return 1
        }
    }

    /// Warnings (unknown tags, recoverable oddities) are dropped, as browsers ignore them.
    private static var dropWarning: TIFFErrorHandlerExtR { { _, _, _, _, _ in 1 } }

    private static var read: TIFFReadWriteProc {
        { client, buffer, size in
            guard let stream = TIFFStream.from(client), let buffer, let wanted = Int(exactly: size), wanted >= 0 else {
                return -1
            }
            let available = max(stream.input.count - stream.position, 0)
            let length = min(wanted, available)
            if length < wanted { stream.readPastEnd = true }
            if length > 0 {
                buffer.copyMemory(from: stream.input.baseAddress! + stream.position, byteCount: length)
                stream.position += length
            }
            return tmsize_t(length)
        }
    }

    private static var write: TIFFReadWriteProc {
        { client, buffer, size in
            guard let stream = TIFFStream.from(client), let buffer, let size = Int(exactly: size), size >= 0 else {
                return -1
            }
            let (end, overflow) = stream.position.addingReportingOverflow(size)
            guard !overflow else { return -1 }
            if end > stream.output.count { stream.output += repeatElement(0, count: end - stream.output.count) }
            if size > 0 {
                stream.output.withUnsafeMutableBytes { output in
                    output.baseAddress!.advanced(by: stream.position).copyMemory(from: buffer, byteCount: size)
                }
            }
            stream.position = end
            return tmsize_t(size)
        }
    }

    private static var seek: TIFFSeekProc {
        { client, offset, whence in
            guard let stream = TIFFStream.from(client) else { return UInt64.max }
            let base: Int
            switch whence {
            case SEEK_CUR: base = stream.position
            case SEEK_END: base = stream.count
            default: base = 0
            }
            // libtiff passes negative offsets as their two's complement.
            let (target, overflow) = base.addingReportingOverflow(Int(truncatingIfNeeded: offset))
            guard !overflow, target >= 0 else { return UInt64.max }
            stream.position = target
            return UInt64(target)
        }
    }

    private static var close: TIFFCloseProc { { _ in 0 } }

    private static var size: TIFFSizeProc { { client in UInt64(TIFFStream.from(client)?.count ?? 0) } }
}
