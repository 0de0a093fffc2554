import Foundation

/// A separable convolution of RGBA8 pixels: a horizontal pass into a float buffer, then a vertical pass back to
/// RGBA8. Colour is premultiplied by alpha in between. Used by ``Resampler`` and ``Blur``.
struct SeparableConvolution {
    let horizontal: ResamplingWeights
    let vertical: ResamplingWeights

    /// The convolved pixels; with `opaque`, premultiplication is skipped.
    func apply(to source: PixelBuffer, opaque: Bool) -> PixelBuffer {
        let size = PixelSize(width: horizontal.outputSize, height: vertical.outputSize)
        let rows = Self.rowsNeeded(by: vertical)
        let (horizontal, vertical) = (horizontal, vertical)
        var intermediate = [SIMD4<Float>](repeating: .zero, count: size.width * rows.count)
        source.bytes.withUnsafeBufferPointer { sourceBytes in
            intermediate.withUnsafeMutableBufferPointer { buffer in
                let input = BandMemory(UnsafeMutablePointer(mutating: sourceBytes.baseAddress!))
                let output = BandMemory(buffer.baseAddress!)
                Self.parallelBands(rows.count) { band in
                    var line = [SIMD4<Float>](repeating: .zero, count: source.width)
                    line.withUnsafeMutableBufferPointer { line in
                        for row in band {
                            let sourceRow = input.bytes(
                                at: (rows.lowerBound + row) * source.bytesPerRow, count: source.bytesPerRow)
                            PixelConversion.load(sourceRow, into: line, premultiply: !opaque)
                            Self.convolve(
                                line, horizontal, into: output.buffer(at: row * size.width, count: size.width))
                        }
                    }
                }
            }
        }
        return PixelBuffer(width: size.width, height: size.height) { pixels in
            intermediate.withUnsafeBufferPointer { intermediate in
                let input = BandMemory(UnsafeMutablePointer(mutating: intermediate.baseAddress!))
                let output = BandMemory(pixels.baseAddress!)
                Self.parallelBands(size.height) { band in
                    var accumulator = [SIMD4<Float>](repeating: .zero, count: size.width)
                    accumulator.withUnsafeMutableBufferPointer { accumulator in
                        for row in band {
                            Self.convolveColumns(
                                input.base, width: size.width, row: row, weights: vertical, firstRow: rows.lowerBound,
                                into: accumulator)
                            PixelConversion.store(
                                accumulator,
                                into: output.mutableBytes(at: row * size.width * 4, count: size.width * 4),
                                unpremultiply: !opaque)
                        }
                    }
                }
            }
        }
    }

    /// The source rows the vertical pass reads.
    private static func rowsNeeded(by weights: ResamplingWeights) -> Range<Int> {
        let last = zip(weights.starts, weights.counts).map { $0 + $1 }.max() ?? 0
        return (weights.starts.min() ?? 0)..<last
    }

    private static func convolve(
        _ line: UnsafeMutableBufferPointer<SIMD4<Float>>, _ weights: ResamplingWeights,
        into output: UnsafeMutableBufferPointer<SIMD4<Float>>
    ) {
        let pixels = line.baseAddress!
        let stride = weights.stride
        weights.weights.withUnsafeBufferPointer { coefficients in
            weights.starts.withUnsafeBufferPointer { starts in
                weights.counts.withUnsafeBufferPointer { counts in
                    var taps = coefficients.baseAddress!
                    for x in 0..<output.count {
                        let source = pixels + starts[x]
                        var sum = SIMD4<Float>.zero
                        for tap in 0..<counts[x] { sum += source[tap] * taps[tap] }
                        output[x] = sum
                        taps += stride
                    }
                }
            }
        }
    }

    private static func convolveColumns(
        _ intermediate: UnsafeMutablePointer<SIMD4<Float>>, width: Int, row: Int, weights: ResamplingWeights,
        firstRow: Int, into accumulator: UnsafeMutableBufferPointer<SIMD4<Float>>
    ) {
        let start = weights.starts[row] - firstRow
        let sums = accumulator.baseAddress!
        let first = intermediate + start * width
        let firstWeight = weights.weights[row * weights.stride]
        for x in 0..<width { sums[x] = first[x] * firstWeight }
        for tap in 1..<max(weights.counts[row], 1) {
            let weight = weights.weights[row * weights.stride + tap]
            let source = intermediate + (start + tap) * width
            for x in 0..<width { sums[x] += source[x] * weight }
        }
    }

    /// Runs `body` over bands of `0..<count`, on every core when there is enough work.
    private static func parallelBands(_ count: Int, _ body: @Sendable (Range<Int>) -> Void) {
        let bands = min(ProcessInfo.processInfo.activeProcessorCount, max(1, count / 64))
        guard bands > 1 else { return body(0..<count) }
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            body((band * count / bands)..<((band + 1) * count / bands))
        }
    }
}

/// Memory shared by the bands of one `concurrentPerform` call.
///
/// `@unchecked Sendable` with no lock: during the call, bands only read memory that no band writes, or write
/// disjoint row ranges of the output; the memory outlives the call that uses it.
private struct BandMemory<Element>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Element>

    init(_ base: UnsafeMutablePointer<Element>) { self.base = base }

    func buffer(at offset: Int, count: Int) -> UnsafeMutableBufferPointer<Element> {
        UnsafeMutableBufferPointer(start: base + offset, count: count)
    }

    func bytes(at offset: Int, count: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + offset, count: count)
    }

    func mutableBytes(at offset: Int, count: Int) -> UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: base + offset, count: count)
    }
}
