import Foundation
import WebImage

/// `webimage-bench decode FILE… [--target N] [--seconds S]`: in-process decode time of each file, as one JSON line
/// per file with the median and best milliseconds per decode.
enum DecodeBenchmark {
    static func run(_ arguments: [String]) throws {
        let seconds = option("seconds", in: arguments).flatMap(Double.init) ?? 2
        let target = option("target", in: arguments).flatMap(Int.init)
        let files = arguments.enumerated().filter { index, argument in
            !argument.hasPrefix("--") && (index == 0 || !arguments[index - 1].hasPrefix("--"))
        }.map(\.element)
        for file in files {
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            let info = try ImageCoders.default.info(of: data)
            var options = DecodingOptions(firstFrameOnly: false)
            if let target {
                let scale = Double(target) / Double(max(info.width, info.height))
                options.targetSize = PixelSize(
                    width: max(1, Int(Double(info.width) * scale)), height: max(1, Int(Double(info.height) * scale)))
            }
            var size = PixelSize(width: 0, height: 0)
            let (median, best) = try measure(seconds: seconds) {
                size = try ImageCoders.default.decode(data, options: options).size
            }
            print(
                "{\"file\": \"\((file as NSString).lastPathComponent)\", \"format\": \"\(info.format)\", "
                    + "\"size\": \"\(size)\", \"median_ms\": \(String(format: "%.3f", median)), "
                    + "\"best_ms\": \(String(format: "%.3f", best))}")
        }
    }
}
