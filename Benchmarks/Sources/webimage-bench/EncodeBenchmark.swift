import Foundation
import WebImage

/// `webimage-bench encode FILE… --format avif [--quality Q] [--speeds 4,5,6] [--seconds S] [--output PATH]`: in-process
/// encode time and output size of each file at each encoder speed, one JSON line per (file, speed); `--output` keeps
/// the last encode, for a quality measure.
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
                var encoded = Data()
                let (median, best) = try measure(seconds: seconds, minimum: 3) {
                    encoded = try ImageCoders.default.encode(image, as: format, options: options)
                }
                let bytes = encoded.count
                if let output = option("output", in: arguments) { try encoded.write(to: URL(fileURLWithPath: output)) }
                print(
                    "{\"file\": \"\((file as NSString).lastPathComponent)\", \"format\": \"\(format)\", "
                        + "\"size\": \"\(image.size)\", \"speed\": \(speed.map(String.init) ?? "null"), "
                        + "\"bytes\": \(bytes), \"median_ms\": \(String(format: "%.3f", median)), "
                        + "\"best_ms\": \(String(format: "%.3f", best))}")
            }
        }
    }
}
