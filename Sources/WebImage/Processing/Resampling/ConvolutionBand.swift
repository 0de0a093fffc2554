/// The working memory of one band of a ``SeparableConvolution``, and its two passes.
///
/// Source rows are loaded into floats (premultiplied unless opaque), filtered horizontally into a ring that holds
/// as many filtered rows as the largest vertical tap count, and each output row is the weighted sum of the ring rows
/// it needs. Both weight tables guarantee that an output's first tap never moves backwards, so every source row is
/// filtered once per band.
///
/// The horizontal pass filters two rows at once where two are due (they share each weight and loop step) and runs
/// every output over the largest horizontal tap count (the weights past an output's own count are zero), reading
/// past the end of the source row into zero padding: a fixed trip count with independent accumulators. The vertical
/// pass sums four outputs at a time, so each weight is loaded once per four.
struct ConvolutionBand: ~Copyable {
    private let horizontal: ResamplingWeights
    private let vertical: ResamplingWeights
    private let sourceWidth: Int
    private let opaque: Bool
    /// Whether colour is filtered in linear light.
    private let linear: Bool
    /// Whether rows are 16-bit samples (``PixelBuffer16``) rather than bytes.
    private let wide: Bool
    /// The largest tap count of the horizontal weights: every output's trip count.
    private let horizontalTaps: Int
    /// The largest tap count of the vertical weights: the rows the ring holds.
    private let ringRows: Int
    /// Two source rows in floats, each followed by `horizontalTaps` zeros.
    private let lines: UnsafeMutableBufferPointer<SIMD4<Float>>
    /// `ringRows` horizontally filtered rows; source row `r` lives in slot `r % ringRows`.
    private let ring: UnsafeMutableBufferPointer<SIMD4<Float>>
    /// One output row before conversion to bytes.
    private let sums: UnsafeMutableBufferPointer<SIMD4<Float>>
    /// The ring rows that the output row being summed reads, in tap order.
    private let taps: UnsafeMutableBufferPointer<UnsafePointer<SIMD4<Float>>>
    /// The first source row not yet in the ring.
    private var nextRow = 0

    init(
        horizontal: ResamplingWeights, vertical: ResamplingWeights, sourceWidth: Int, opaque: Bool,
        linear: Bool = false, wide: Bool = false
    ) {
        self.linear = linear
        self.wide = wide
        self.horizontal = horizontal
        self.vertical = vertical
        self.sourceWidth = sourceWidth
        self.opaque = opaque
        let width = horizontal.outputSize
        horizontalTaps = max(horizontal.counts.max() ?? 1, 1)
        ringRows = max(vertical.counts.max() ?? 1, 1)
        lines = .allocate(capacity: 2 * (sourceWidth + horizontalTaps))
        lines.initialize(repeating: .zero)
        ring = .allocate(capacity: width * ringRows)
        ring.initialize(repeating: .zero)
        sums = .allocate(capacity: width)
        sums.initialize(repeating: .zero)
        taps = .allocate(capacity: ringRows)
        taps.initialize(repeating: UnsafePointer(ring.baseAddress!))
    }

    deinit {
        lines.deallocate()
        ring.deallocate()
        sums.deallocate()
        taps.deallocate()
    }

    /// Writes output row `row` as RGBA8 into `output`; `source` gives a source row's bytes.
    mutating func filterRow(
        _ row: Int, source: (Int) -> UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) {
        let first = vertical.starts[row]
        let count = max(vertical.counts[row], 1)
        nextRow = max(nextRow, first)
        // Rows in pairs where two are due: the pair shares each weight and loop step.
        let lineStride = sourceWidth + horizontalTaps
        while nextRow < first + count {
            let pair = nextRow + 1 < first + count
            for index in 0..<(pair ? 2 : 1) {
                let line = UnsafeMutableBufferPointer(
                    rebasing: lines[(index * lineStride)..<(index * lineStride + sourceWidth)])
                if wide {
                    PixelConversion.load16(source(nextRow + index), into: line, premultiply: !opaque, linear: linear)
                } else {
                    PixelConversion.load(source(nextRow + index), into: line, premultiply: !opaque, linear: linear)
                }
            }
            filterHorizontally(
                lines.baseAddress!, lines.baseAddress! + lineStride, into: slot(nextRow),
                and: pair ? slot(nextRow + 1) : nil)
            nextRow += pair ? 2 : 1
        }
        for tap in 0..<count { taps[tap] = UnsafePointer(slot(first + tap)) }
        vertical.weights.withUnsafeBufferPointer { weights in
            sumVertically(count: count, weights: weights.baseAddress! + row * vertical.stride)
        }
        if wide {
            PixelConversion.store16(sums, into: output, unpremultiply: !opaque, linear: linear)
        } else {
            PixelConversion.store(sums, into: output, unpremultiply: !opaque, linear: linear)
        }
    }

    private func slot(_ sourceRow: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
        ring.baseAddress! + (sourceRow % ringRows) * horizontal.outputSize
    }

    private func filterHorizontally(
        _ first: UnsafePointer<SIMD4<Float>>, _ second: UnsafePointer<SIMD4<Float>>,
        into output: UnsafeMutablePointer<SIMD4<Float>>, and secondOutput: UnsafeMutablePointer<SIMD4<Float>>?
    ) {
        let (stride, count) = (horizontal.stride, horizontalTaps)
        horizontal.weights.withUnsafeBufferPointer { coefficients in
            horizontal.starts.withUnsafeBufferPointer { starts in
                var weights = coefficients.baseAddress!
                guard let secondOutput else {
                    for x in 0..<horizontal.outputSize {
                        let source = first + starts[x]
                        var sum0 = SIMD4<Float>.zero
                        var sum1 = SIMD4<Float>.zero
                        var tap = 0
                        while tap &+ 1 < count {
                            sum0 += source[tap] * weights[tap]
                            sum1 += source[tap &+ 1] * weights[tap &+ 1]
                            tap &+= 2
                        }
                        if tap < count { sum0 += source[tap] * weights[tap] }
                        output[x] = sum0 + sum1
                        weights += stride
                    }
                    return
                }
                for x in 0..<horizontal.outputSize {
                    let top = first + starts[x]
                    let bottom = second + starts[x]
                    var top0 = SIMD4<Float>.zero
                    var top1 = SIMD4<Float>.zero
                    var bottom0 = SIMD4<Float>.zero
                    var bottom1 = SIMD4<Float>.zero
                    var tap = 0
                    while tap &+ 1 < count {
                        let (weight0, weight1) = (weights[tap], weights[tap &+ 1])
                        top0 += top[tap] * weight0
                        bottom0 += bottom[tap] * weight0
                        top1 += top[tap &+ 1] * weight1
                        bottom1 += bottom[tap &+ 1] * weight1
                        tap &+= 2
                    }
                    if tap < count {
                        top0 += top[tap] * weights[tap]
                        bottom0 += bottom[tap] * weights[tap]
                    }
                    output[x] = top0 + top1
                    secondOutput[x] = bottom0 + bottom1
                    weights += stride
                }
            }
        }
    }

    private func sumVertically(count: Int, weights: UnsafePointer<Float>) {
        let width = horizontal.outputSize
        let output = sums.baseAddress!
        var x = 0
        while x + 4 <= width {
            var sum0 = SIMD4<Float>.zero
            var sum1 = SIMD4<Float>.zero
            var sum2 = SIMD4<Float>.zero
            var sum3 = SIMD4<Float>.zero
            for tap in 0..<count {
                let source = taps[tap] + x
                let weight = weights[tap]
                sum0 += source[0] * weight
                sum1 += source[1] * weight
                sum2 += source[2] * weight
                sum3 += source[3] * weight
            }
            output[x] = sum0
            output[x + 1] = sum1
            output[x + 2] = sum2
            output[x + 3] = sum3
            x += 4
        }
        while x < width {
            var sum = SIMD4<Float>.zero
            for tap in 0..<count { sum += taps[tap][x] * weights[tap] }
            output[x] = sum
            x += 1
        }
    }
}
