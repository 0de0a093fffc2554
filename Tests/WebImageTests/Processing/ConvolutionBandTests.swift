import Foundation
import Testing

@testable import WebImage

/// The banded, ring-buffered convolution gives what the weights say, computed naively in doubles, for every shape
/// the ring has to survive: strong and extreme shrinks (a tap count near the whole input), enlargements, one-pixel
/// sides, several bands, and blur kernels longer than the image.
@Suite struct ConvolutionBandTests {
    /// A deterministic, non-uniform opaque picture.
    private func picture(_ width: Int, _ height: Int) -> PixelBuffer {
        PixelBuffer(
            width: width, height: height,
            bytes: (0..<(width * height * 4)).map { index in
                index % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 7)
            })
    }

    /// Each channel of `source` convolved with `horizontal` then `vertical`, in doubles.
    private func reference(
        _ source: PixelBuffer, _ horizontal: ResamplingWeights, _ vertical: ResamplingWeights
    ) -> [Double] {
        let (width, height) = (horizontal.outputSize, vertical.outputSize)
        var rows = [Double](repeating: 0, count: width * source.height * 4)
        for y in 0..<source.height {
            for x in 0..<width {
                for tap in 0..<horizontal.counts[x] {
                    let weight = Double(horizontal.weights[x * horizontal.stride + tap])
                    for channel in 0..<4 {
                        let value = Double(source.bytes[(y * source.width + horizontal.starts[x] + tap) * 4 + channel])
                        rows[(y * width + x) * 4 + channel] += weight * value
                    }
                }
            }
        }
        var output = [Double](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for tap in 0..<vertical.counts[y] {
                let weight = Double(vertical.weights[y * vertical.stride + tap])
                let row = vertical.starts[y] + tap
                for index in 0..<(width * 4) { output[y * width * 4 + index] += weight * rows[row * width * 4 + index] }
            }
        }
        return output
    }

    private func expectMatches(_ source: PixelBuffer, _ convolution: SeparableConvolution) {
        let result = convolution.apply(to: source, opaque: true)
        let expected = reference(source, convolution.horizontal, convolution.vertical)
        let worst = zip(result.bytes, expected).map { abs(Double($0) - min(max($1, 0), 255)) }.max() ?? 0
        #expect(worst <= 1, "\(source.size) -> \(result.size): off by \(worst)")
    }

    @Test(arguments: [
        (97, 61, 40, 25), (300, 300, 300, 1), (300, 300, 1, 300), (400, 200, 37, 150), (13, 9, 130, 90),
        (1, 1, 5, 7), (1, 200, 1, 3), (256, 256, 255, 129), (640, 480, 7, 5),
    ])
    func resamplingMatchesTheNaiveSum(width: Int, height: Int, outputWidth: Int, outputHeight: Int) {
        for filter in [ResamplingFilter.lanczos3, .bilinear, .box] {
            expectMatches(
                picture(width, height),
                SeparableConvolution(
                    horizontal: ResamplingWeights(inputSize: width, outputSize: outputWidth, filter: filter),
                    vertical: ResamplingWeights(inputSize: height, outputSize: outputHeight, filter: filter)))
        }
    }

    @Test func blurKernelsLongerThanTheImage() {
        let kernel = (0..<61).map { exp(-pow(Double($0 - 30), 2) / 200) }
        for (width, height) in [(5, 3), (40, 200), (1, 1)] {
            expectMatches(
                picture(width, height),
                SeparableConvolution(
                    horizontal: ResamplingWeights(size: width, kernel: kernel),
                    vertical: ResamplingWeights(size: height, kernel: kernel)))
        }
    }

    @Test func tablesNeverHoldMoreTapsThanTheInput() {
        let extreme = ResamplingWeights(inputSize: 7_000, outputSize: 1, filter: .lanczos3)
        #expect(extreme.stride == 7_000)
        #expect(extreme.counts == [7_000])
        #expect(ResamplingWeights(inputSize: 3, outputSize: 1, filter: .lanczos3).stride == 3)
    }

    @Test func cachedTablesAreTheTablesTheirSizesMake() async {
        // Concurrent first uses of the same sizes, small tables (kept) and one too large to keep (built each time).
        let sizes = [(1022, 720), (835, 588), (97, 40), (60_000, 20_000), (1022, 720)]
        await withTaskGroup(of: Void.self) { group in
            for (input, output) in sizes + sizes {
                group.addTask {
                    let cached = ResamplingWeights.cached(inputSize: input, outputSize: output, filter: .lanczos3)
                    let made = ResamplingWeights(inputSize: input, outputSize: output, filter: .lanczos3)
                    #expect(cached.starts == made.starts && cached.counts == made.counts)
                    #expect(cached.weights == made.weights && cached.stride == made.stride)
                }
            }
        }
        let catmullRom = ResamplingWeights.cached(inputSize: 1022, outputSize: 720, filter: .catmullRom)
        #expect(
            catmullRom.weights != ResamplingWeights.cached(inputSize: 1022, outputSize: 720, filter: .lanczos3).weights)
    }
}
