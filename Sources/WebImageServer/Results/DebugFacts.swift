import Foundation
import Hummingbird
import WebImage

/// What imgproxy's debug headers (`IMGPROXY_ENABLE_DEBUG_HEADERS`) say about a result: its source's pixel size and
/// bytes, and its own pixel size. Kept with the result in every tier while the headers are on, so a cached result
/// answers them as the first answer did.
struct DebugFacts: Sendable, Hashable {
    var originWidth: Int
    var originHeight: Int
    var originBytes: Int
    var resultWidth: Int
    var resultHeight: Int

    /// `X-Origin-Width`, `X-Origin-Height`, `X-Origin-Content-Length`, `X-Result-Width`, `X-Result-Height`.
    static let names: [HTTPFields.Element.Name] = [
        HTTPFields.Element.Name("X-Origin-Width")!, HTTPFields.Element.Name("X-Origin-Height")!,
        HTTPFields.Element.Name("X-Origin-Content-Length")!, HTTPFields.Element.Name("X-Result-Width")!,
        HTTPFields.Element.Name("X-Result-Height")!,
    ]

    init(originWidth: Int, originHeight: Int, originBytes: Int, resultWidth: Int, resultHeight: Int) {
        (self.originWidth, self.originHeight, self.originBytes) = (originWidth, originHeight, originBytes)
        (self.resultWidth, self.resultHeight) = (resultWidth, resultHeight)
    }

    /// Facts read back from ``text``; `nil` unless it is five integers from 0 to 2^53.
    init?(text: String) {
        let numbers = text.split(separator: " ").compactMap { Int($0) }.filter { (0...(1 << 53)).contains($0) }
        guard numbers.count == 5, text.split(separator: " ").count == 5 else { return nil }
        self.init(
            originWidth: numbers[0], originHeight: numbers[1], originBytes: numbers[2], resultWidth: numbers[3],
            resultHeight: numbers[4])
    }

    /// The facts as five decimal numbers, for the disk and shared tiers.
    var text: String { "\(originWidth) \(originHeight) \(originBytes) \(resultWidth) \(resultHeight)" }

    /// Sets the five headers.
    func apply(to headers: inout HTTPFields) {
        let values = [originWidth, originHeight, originBytes, resultWidth, resultHeight]
        for (name, value) in zip(Self.names, values) { headers[name] = String(value) }
    }
}

extension ProcessedImage {
    /// This result, made from a source of `size` pixels and `bytes` bytes.
    func from(_ size: PixelSize, bytes: Int) -> ProcessedImage {
        var result = self
        (result.sourceSize, result.sourceBytes) = (size, bytes)
        return result
    }

    /// The debug headers' facts, when the source's size and bytes are known.
    var debugFacts: DebugFacts? {
        guard let sourceSize, let sourceBytes else { return nil }
        return DebugFacts(
            originWidth: sourceSize.width, originHeight: sourceSize.height, originBytes: sourceBytes,
            resultWidth: size.width, resultHeight: size.height)
    }
}
