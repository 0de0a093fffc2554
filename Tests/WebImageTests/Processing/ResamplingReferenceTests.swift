import Foundation
import Testing
import WebImage
import WebImageTesting

/// The resampler matches Pillow's resize of the same pixels within PSNR 38 dB.
/// References: `Tests/Fixtures/resize/make_references.py`.
@Suite struct ResamplingReferenceTests {
    static let cases: [(String, String)] = ["photo", "alpha"].flatMap { source in
        [
            "160x120_lanczos3", "320x240_lanczos3", "97x61_lanczos3", "900x700_lanczos3", "160x120_catmullrom",
            "160x120_bilinear",
        ].map { (source, $0) }
    }

    @Test(arguments: cases)
    func matchesPillow(source: String, variant: String) throws {
        let directory = Fixtures.directory.appendingPathComponent("resize")
        let input = try PNGCoder().decode(
            Data(contentsOf: directory.appendingPathComponent("\(source).png")), options: .default)
        let expected = try PNGCoder().decode(
            Data(contentsOf: directory.appendingPathComponent("\(source)_\(variant).png")), options: .default)
        let filterName = String(variant.split(separator: "_")[1])
        let filter = [ResamplingFilter.lanczos3, .catmullRom, .bilinear].first { $0.name == filterName }!
        let resized = try Resize(to: expected.size, mode: .fill, filter: filter, allowsUpscaling: true).transform(
            input)
        let psnr = Self.psnr(resized.pixels, expected.pixels)
        #expect(psnr >= 38, "PSNR \(psnr) dB")
    }

    /// Peak signal-to-noise ratio over premultiplied RGBA.
    static func psnr(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        var squared = 0.0
        for index in a.bytes.indices {
            func premultiplied(_ bytes: [UInt8]) -> Double {
                index % 4 == 3
                    ? Double(bytes[index]) : Double(bytes[index]) * Double(bytes[index - index % 4 + 3]) / 255
            }
            let delta = premultiplied(a.bytes) - premultiplied(b.bytes)
            squared += delta * delta
        }
        let mse = squared / Double(a.bytes.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}
