import Foundation
import Logging
import WebImage
import WebImageStores

/// How an environment variable's text becomes a value, and what it must hold when it does not (for the error).
struct ValueParser<Value>: Sendable {
    /// What a value must be, after "must be" (`an integer`).
    let expected: String
    /// The value of `text`, `nil` when it does not parse.
    let parse: @Sendable (String) -> Value?

    /// A parser of the values `transform` maps this parser's values to.
    func map<Other>(_ transform: @escaping @Sendable (Value) -> Other) -> ValueParser<Other> {
        let parse = parse
        return ValueParser<Other>(expected: expected) { parse($0).map(transform) }
    }
}

extension ValueParser<String> {
    /// The text as it is.
    static var text: Self { Self(expected: "text") { $0 } }
}

extension ValueParser<Int> {
    /// A decimal integer.
    static var integer: Self { Self(expected: "an integer") { Int($0.trimmingCharacters(in: .whitespaces)) } }
}

extension ValueParser<Double> {
    /// A decimal number: seconds, megapixels.
    static var number: Self { Self(expected: "a number") { Double($0.trimmingCharacters(in: .whitespaces)) } }
}

extension ValueParser<Bool> {
    /// `1`, `t`, `true`, `yes`, `on` or `0`, `f`, `false`, `no`, `off`, in any case: ours and Go's `ParseBool`,
    /// which imgproxy uses.
    static var boolean: Self {
        Self(expected: "one of 1, true, yes, on, 0, false, no, off") { text in
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "1", "t", "true", "yes", "on": true
            case "0", "f", "false", "no", "off": false
            default: nil
            }
        }
    }
}

extension ValueParser<[String]> {
    /// A list separated by `separator` (a comma), each element trimmed, empty ones dropped, as imgproxy reads lists.
    static func list(separatedBy separator: String = ",") -> Self {
        Self(expected: "a list") { text in
            text.components(separatedBy: separator).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }
    }
}

extension ValueParser<Logger.Level> {
    /// imgproxy's `debug`, `info`, `warn`, `error` (and swift-log's other names).
    static var logLevel: Self {
        Self(expected: "debug, info, warn or error") { text in
            let name = text.trimmingCharacters(in: .whitespaces).lowercased()
            return name == "warn" ? .warning : Logger.Level(rawValue: name)
        }
    }
}

extension ValueParser<S3Addressing> {
    /// `auto`, `path` or `virtual`.
    static var addressing: Self { Self(expected: "auto, path or virtual") { S3Addressing(name: $0) } }
}

extension ValueParser<WebPPreset> {
    /// libwebp's preset names, as imgproxy's `IMGPROXY_WEBP_PRESET` takes them.
    static var webpPreset: Self {
        Self(expected: "default, photo, picture, drawing, icon or text") { WebPPreset(named: $0) }
    }
}

extension ValueParser<MemoryAllocator> {
    /// `tuned` or `glibc`.
    static var allocator: Self { Self(expected: "tuned or glibc") { MemoryAllocator(rawValue: $0) } }
}

/// An address to listen on, from imgproxy's `IMGPROXY_BIND`.
struct BindAddress: Sendable, Hashable {
    var host: String
    var port: Int

    /// `HOST:PORT`, `[IPV6]:PORT` or `:PORT` (every interface, as Go listens), the forms of `IMGPROXY_BIND`.
    static var parser: ValueParser<BindAddress> {
        ValueParser(expected: "HOST:PORT or :PORT") { text in
            guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
                (0...65_535).contains(port)
            else { return nil }
            var host = String(text[..<colon])
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            return BindAddress(host: host.isEmpty ? "0.0.0.0" : host, port: port)
        }
    }
}
