import Foundation
import Testing
import WebImage

@testable import WebImageServer

/// Random option lists through the whole pixel pipeline: never a trap, always an image of the computed size.
@Suite("Server: processor property test")
struct ProcessorFuzzTests {
    @Test func randomOptionsOnRealPixelsNeverCrash() throws {
        var generator = SplitMix(seed: 0xFACE)
        let names = [
            "rs", "s", "w", "h", "dpr", "el", "ex", "g", "c", "rot", "bg", "bl", "sh", "q", "ar", "pr", "exar", "pd",
            "fl", "mw", "mh", "z", "t", "pix", "wm",
        ]
        let args = [
            "", "0", "1", "3", "0.3", "0.99", "2", "7", "40", "90", "180", "-90", "fill", "fit", "fill-down", "force",
            "auto", "sm", "fp", "ce", "soea", "nowe", "re", "ff00ff", "t", "p",
        ]
        let parser = ImageURLParser(signer: nil, presets: try Presets(definitions: ["p=rs:fill:5:9/g:sm"]))
        var limits = ServerLimits()
        limits.maxResultDimension = 64
        let processor = ImageProcessor(coders: ImageCoders.default, limits: limits)
        let watermark = WatermarkImage(
            pixels: PixelBuffer(width: 3, height: 2, filledWith: RGBA(red: 9, green: 200, blue: 9, alpha: 180)),
            opacity: 0.7)
        let sources = try [(.png, 23, 11), (.jpeg, 9, 17), (.webp, 1, 1)].map { (format: ImageFormat, w: Int, h: Int) in
            let pixels = PixelBuffer(width: w, height: h) { buffer in
                for index in 0..<buffer.count { buffer[index] = UInt8(truncatingIfNeeded: index &* 37) }
            }
            return try ImageCoders.default.encode(Image(pixels: pixels), as: format, options: .default)
        }
        var processed = 0
        for _ in 0..<6_000 {
            var segments: [String] = []
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                var segment = names[Int(generator.next() % UInt64(names.count))]
                for _ in 0..<(1 + Int(generator.next() % 3)) {
                    segment += ":" + args[Int(generator.next() % UInt64(args.count))]
                }
                segments.append(segment)
            }
            let path = "/x/" + segments.joined(separator: "/") + "/plain/http://e.example/a.png"
            guard let request = try? parser.parse(path, now: 0) else { continue }
            let data = sources[Int(generator.next() % UInt64(sources.count))]
            let format: ImageFormat = [.png, .jpeg, .webp][Int(generator.next() % 3)]
            do {
                let result = try processor.process(
                    data, options: request.options, format: format, watermark: watermark)
                let image = try ImageCoders.default.decode(result.data, options: .default)
                #expect(image.size == result.size, "\(path)")
                // imgproxy rounds the scaled image and each padded side apart: padding may pass the limit by 2.
                let bound = request.options.padding.isEnabled ? 66 : 64
                #expect(result.size.width <= bound && result.size.height <= bound, "\(path) \(result.size)")
                processed += 1
            } catch {
                Issue.record("\(path): \(error)")
            }
        }
        #expect(processed > 100)
    }
}
