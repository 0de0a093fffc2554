import Foundation
import WebImage

extension ProcessingOptions {
    /// The one spelling of these options and `source` that ``ImageURLBuilder`` writes (without the signature): the
    /// segment of every option that differs from its default, by its long name, in `OptionTable`'s order (the
    /// README's option table), then the source in URL-safe base64 and the format as the extension. A load balancer
    /// that hashes URLs then sends every request for one result to one node. Presets are written out as the options
    /// they set.
    public func canonicalPath(source: String) -> String { canonicalPath(source: source, argumentsSeparator: ":") }

    /// ``canonicalPath(source:)`` with `argumentsSeparator` between each option's name and arguments (imgproxy's
    /// `IMGPROXY_ARGUMENTS_SEPARATOR`): the server refuses a `:` in an option when its separator is another, so the
    /// writers' `:` are all separators.
    public func canonicalPath(source: String, argumentsSeparator: String) -> String {
        var segments = OptionTable.pathEntries.compactMap { $0.write(self) }
        if argumentsSeparator != ":", !argumentsSeparator.isEmpty {
            segments = segments.map { $0.replacingOccurrences(of: ":", with: argumentsSeparator) }
        }
        var encoded = Base64URL.encode(Array(source.utf8))
        // A source with no option before it whose base64 spells a resizing type (`fill` is "~)e") would read as
        // imgproxy's deprecated basic URL format; base64 may be split by slashes, so split it (found by fuzz-url).
        if segments.isEmpty, ResizingType(rawValue: encoded) != nil {
            encoded.insert("/", at: encoded.index(after: encoded.startIndex))
        }
        let path = (segments + [encoded]).joined(separator: "/")
        return "/" + path + (format.map { "." + Self.name($0) } ?? "")
    }

    /// imgproxy's name for `format` (the shortest of its names, `jpg` for JPEG).
    static func name(_ format: ImageFormat) -> String {
        OutputFormat.byName.filter { $0.value == format }.keys.min { ($0.count, $0) < ($1.count, $1) }
            ?? format.name
    }

    /// The shortest spelling of `gravity` that reads back as it: the kind alone without offsets.
    static func gravity(_ gravity: GravityOption) -> String {
        gravity.kind == .smart || (gravity.x == 0 && gravity.y == 0 && gravity.kind != .focusPoint)
            ? gravity.kind.rawValue : "\(gravity.kind.rawValue):\(number(gravity.x)):\(number(gravity.y))"
    }

    /// The shortest text that reads back as `value`: `2` rather than `2.0`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
