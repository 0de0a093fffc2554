import Foundation
import WebImage

/// `webimage-bench encode FILE… --format avif [--quality Q] [--speeds 4,5,6] [--seconds S]`: in-process encode time
/// and output size of each file at each encoder speed, one JSON line per (file, speed).
enum EncodeBenchmark {
    static func run(_ arguments: [String]) throws {
        let seconds = option("seconds", in: arguments).flatMap(Double.init) ?? 2
        let quality = option("quality", in: arguments).flatMap(Int.init) ?? 80
        let format = option("format", in: arguments).flatMap { ImageFormat(fileExtension: $0) } ?? .avif
        let speeds: [Int?] = option("speeds", in: arguments)?.split(separator: ",").compactMap { Int($0) } ?? [nil]
        let files = arguments.enumerated().filter { index, argument in
            !argument.hasPrefix("--") && (index == 0 || !arguments[index - 1].hasPrefix("--"))
        }.map(\.element)
        for file in files {
            let image = try ImageCoders.default.decode(
                Data(contentsOf: URL(fileURLWithPath: file)), options: DecodingOptions(firstFrameOnly: true))
            for speed in speeds {
                let options = EncodingOptions(quality: quality, speed: speed)
                var bytes = 0
                let (median, best) = try measure(seconds: seconds, minimum: 3) {
                    bytes = try ImageCoders.default.encode(image, as: format, options: options).count
                }
                print(
                    "{\"file\": \"\((file as NSString).lastPathComponent)\", \"format\": \"\(format)\", "
                        + "\"size\": \"\(image.size)\", \"speed\": \(speed.map(String.init) ?? "null"), "
                        + "\"bytes\": \(bytes), \"median_ms\": \(String(format: "%.3f", median)), "
                        + "\"best_ms\": \(String(format: "%.3f", best))}")
            }
        }
    }
}
