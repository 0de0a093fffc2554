import Foundation
import WebImage

/// `webimage-bench colour FILE --size WxH [--seconds S]`: where colour conversion goes in a decode, as one JSON line:
/// a full-size decode (converted at decode), and a thumbnail (shrink-on-load decode and a Lanczos3 resize to fit
/// `size`) converted at decode or after the resize (decoded with `keepsColorProfile`, then `convertedToSRGB()`).
/// And the floor of any exact conversion against the decode it adds to: a full-size decode that keeps the source's
/// values (`keepsColorProfile`), and one pass over its pixels with a 256-entry table per channel, the least a
/// per-channel tone curve costs (a profile conversion adds a matrix and a second curve).
enum ColourBenchmark {
    static func run(_ arguments: [String]) throws {
        let (file, size) = try ResampleBenchmark.parse(arguments)
        let seconds = option("seconds", in: arguments).flatMap(Double.init) ?? 2
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let resize = Resize(to: size, mode: .contain)
        let target = try resize.minimumSourceSize(for: try ImageCoders.default.info(of: data).uprightSize)
        let full = try measure(seconds: seconds) { _ = try ImageCoders.default.decode(data, options: .default) }
        let atDecode = try measure(seconds: seconds) {
            _ = try resize.transform(ImageCoders.default.decode(data, options: DecodingOptions(targetSize: target)))
        }
        let keep = DecodingOptions(targetSize: target, keepsColorProfile: true)
        let afterResize = try measure(seconds: seconds) {
            _ = try resize.transform(ImageCoders.default.decode(data, options: keep)).convertedToSRGB()
        }
        let unconverted = try measure(seconds: seconds) {
            _ = try ImageCoders.default.decode(data, options: DecodingOptions(keepsColorProfile: true))
        }
        var pixels = try ImageCoders.default.decode(data, options: DecodingOptions(keepsColorProfile: true)).pixels
            .bytes
        let tables = (0..<3).map { channel in (0..<256).map { UInt8(255 - ($0 + channel) % 256) } }
        let tablePass = try measure(seconds: seconds) { lookUp(&pixels, tables) }
        print(
            "{\"file\": \"\((file as NSString).lastPathComponent)\", \"full_ms\": \(format(full.median)), "
                + "\"thumbnail_converted_at_decode_ms\": \(format(atDecode.median)), "
                + "\"thumbnail_converted_after_resize_ms\": \(format(afterResize.median)), "
                + "\"full_unconverted_ms\": \(format(unconverted.median)), "
                + "\"table_pass_ms\": \(format(tablePass.median)), "
                + "\"table_pass_share\": \(format(tablePass.median / unconverted.median))}")
    }

    /// One table lookup per colour channel of every RGBA pixel, in place.
    private static func lookUp(_ pixels: inout [UInt8], _ tables: [[UInt8]]) {
        tables[0].withUnsafeBufferPointer { red in
            tables[1].withUnsafeBufferPointer { green in
                tables[2].withUnsafeBufferPointer { blue in
                    pixels.withUnsafeMutableBufferPointer { bytes in
                        var index = 0
                        while index + 3 < bytes.count {
                            bytes[index] = red[Int(bytes[index])]
                            bytes[index + 1] = green[Int(bytes[index + 1])]
                            bytes[index + 2] = blue[Int(bytes[index + 2])]
                            index += 4
                        }
                    }
                }
            }
        }
    }

    private static func format(_ milliseconds: Double) -> String { String(format: "%.3f", milliseconds) }
}
