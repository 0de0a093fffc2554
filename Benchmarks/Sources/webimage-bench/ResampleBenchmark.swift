import Foundation
import WebImage

/// `webimage-bench resample FILE --size WxH [--filter NAME] [--seconds S]`: the resampler alone on decoded pixels,
/// in megapixels of input per second, and `webimage-bench stages FILE --size WxH`: time of each stage of a
/// thumbnail (shrink-on-load decode, resample, JPEG encode).
enum ResampleBenchmark {
    static func run(_ arguments: [String]) throws {
        let (file, size) = try parse(arguments)
        let filterName = option("filter", in: arguments) ?? "lanczos3"
        guard
            let filter = [ResamplingFilter.lanczos3, .catmullRom, .mitchell, .bilinear, .box].first(where: {
                $0.name == filterName
            })
        else { throw WebImageError(.invalidArgument, "unknown filter \(filterName)") }
        let image = try ImageCoders.default.decode(Data(contentsOf: URL(fileURLWithPath: file)), options: .default)
        let resampler = Resampler(filter: filter)
        let (median, best) = measure(seconds: option("seconds", in: arguments).flatMap(Double.init) ?? 2) {
            _ = resampler.resample(image.pixels, to: size)
        }
        let megapixels = Double(image.width * image.height) / 1e6
        print(
            "{\"input\": \"\(image.size)\", \"output\": \"\(size)\", \"filter\": \"\(filter)\", "
                + "\"median_ms\": \(String(format: "%.3f", median)), \"best_ms\": \(String(format: "%.3f", best)), "
                + "\"mpix_per_s\": \(String(format: "%.1f", megapixels / (median / 1000)))}")
    }

    static func stages(_ arguments: [String]) throws {
        let (file, size) = try parse(arguments)
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let resize = Resize(to: size, mode: .fill)
        let target = resize.minimumSourceSize(for: try ImageCoders.default.info(of: data).uprightSize)
        var decoded: Image?
        var resized: Image?
        let decode = measure {
            decoded = try? ImageCoders.default.decode(data, options: DecodingOptions(targetSize: target))
        }
        let resample = measure { resized = try? resize.transform(decoded!) }
        let encode = measure {
            _ = try? ImageCoders.default.encode(resized!, as: .jpeg, options: EncodingOptions(quality: 80))
        }
        print(
            "decode (to \(decoded!.size)) \(String(format: "%.2f", decode.median)) ms, resample \(String(format: "%.2f", resample.median)) ms, "
                + "encode \(String(format: "%.2f", encode.median)) ms")
    }

    /// The file and `--size WxH` of a resampling benchmark's arguments.
    static func parse(_ arguments: [String]) throws -> (String, PixelSize) {
        guard let file = arguments.first, let text = option("size", in: arguments) else {
            throw WebImageError(.invalidArgument, "usage: webimage-bench resample FILE --size WxH")
        }
        let parts = text.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2 else { throw WebImageError(.invalidArgument, "--size takes WxH") }
        return (file, PixelSize(width: parts[0], height: parts[1]))
    }
}
