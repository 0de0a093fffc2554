import Foundation

/// How new trace ids are made, as imgproxy's `IMGPROXY_OPEN_TELEMETRY_TRACE_ID_GENERATOR` says: ``xray`` (imgproxy's
/// default: AWS X-Ray's form, the first 4 bytes the Unix time in seconds, big-endian, then 12 random bytes, which X-Ray
/// needs to take the trace) or ``random`` (16 random bytes, OpenTelemetry's default). Span ids are 8 random bytes
/// with either. An id is never all zeros.
public struct TraceIDGenerator: Sendable, Hashable, CustomStringConvertible {
    private let xrayForm: Bool

    /// AWS X-Ray trace ids: the Unix time in seconds, then 12 random bytes.
    public static let xray = TraceIDGenerator(xrayForm: true)
    /// 16 random bytes.
    public static let random = TraceIDGenerator(xrayForm: false)

    /// The generator imgproxy names `name` (`xray` or `random`); `nil` for any other name.
    public init?(name: String) {
        switch name {
        case "xray": self = .xray
        case "random": self = .random
        default: return nil
        }
    }

    private init(xrayForm: Bool) { self.xrayForm = xrayForm }

    /// `xray` or `random`.
    public var description: String { xrayForm ? "xray" : "random" }

    /// A new trace id, made at `now`.
    public func traceID(now: Date = Date()) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes = Self.bytes(16, using: &generator)
        if xrayForm {
            let seconds = UInt32(clamping: Int64(now.timeIntervalSince1970.rounded(.down)))
            for index in 0..<4 { bytes[index] = UInt8(truncatingIfNeeded: seconds >> (8 * UInt32(3 - index))) }
        }
        return bytes
    }

    /// A new span id.
    public func spanID() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return Self.bytes(8, using: &generator)
    }

    /// `count` random bytes, not all zero.
    private static func bytes(_ count: Int, using generator: inout SystemRandomNumberGenerator) -> [UInt8] {
        while true {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if bytes.contains(where: { $0 != 0 }) { return bytes }
        }
    }
}
