import Foundation
import WebImage

/// `webimage-bench colour FILE --size WxH [--seconds S]`: where colour conversion goes in a decode, as one JSON line:
/// a full-size decode (converted at decode), and a thumbnail (shrink-on-load decode and a Lanczos3 resize to fit
/// `size`) converted at decode or after the resize (decoded with `keepsColorProfile`, then `convertedToSRGB()`).
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
        print(
            "{\"file\": \"\((file as NSString).lastPathComponent)\", \"full_ms\": \(format(full.median)), "
                + "\"thumbnail_converted_at_decode_ms\": \(format(atDecode.median)), "
                + "\"thumbnail_converted_after_resize_ms\": \(format(afterResize.median))}")
    }

    private static func format(_ milliseconds: Double) -> String { String(format: "%.3f", milliseconds) }
}
