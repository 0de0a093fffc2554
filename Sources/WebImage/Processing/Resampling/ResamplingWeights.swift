/// The precomputed contributions of source pixels to each output pixel along one axis.
///
/// When shrinking, the filter is widened by the scale factor so that every source pixel contributes (no aliasing).
/// The weights of each output pixel are normalised to sum to 1. Sample positions follow Pillow's and libvips'
/// convention: output pixel `i` is centred on source position `(i + 0.5) * scale`.
struct ResamplingWeights {
    /// First source index contributing to each output index.
    let starts: [Int]
    /// Number of contributing source pixels for each output index (at most ``stride``).
    let counts: [Int]
    /// Distance between the weights of consecutive output indices in ``weights``.
    let stride: Int
    /// `outputSize * stride` weights; those past an index's count are zero.
    let weights: [Float]

    /// The number of output pixels.
    var outputSize: Int { starts.count }

    private init(starts: [Int], counts: [Int], stride: Int, weights: [Float]) {
        self.starts = starts
        self.counts = counts
        self.stride = stride
        self.weights = weights
    }

    /// Weights that convolve a line of `size` pixels with a symmetric `kernel` (centre tap in the middle), keeping
    /// the size; at the ends the kernel is cut and renormalised.
    init(size: Int, kernel: [Double]) {
        let half = kernel.count / 2
        var starts = [Int](repeating: 0, count: size)
        var counts = [Int](repeating: 0, count: size)
        var weights = [Float](repeating: 0, count: size * kernel.count)
        for index in 0..<size {
            let first = max(index - half, 0)
            let last = min(index + half + 1, size)
            let taps = (first..<last).map { kernel[$0 - index + half] }
            let total = taps.reduce(0, +)
            starts[index] = first
            counts[index] = taps.count
            for (tap, weight) in taps.enumerated() { weights[index * kernel.count + tap] = Float(weight / total) }
        }
        self.init(starts: starts, counts: counts, stride: kernel.count, weights: weights)
    }

    /// The weights for these sizes and filter, made once and kept (a server or a thumbnailer resizes to the same few
    /// sizes over and over, and each table costs two sines a tap). At most 32 tables of at most 256 KB each are
    /// kept, so that requests for ever new sizes cannot pin more than 8 MB.
    static func cached(inputSize: Int, outputSize: Int, filter: ResamplingFilter) -> ResamplingWeights {
        let key = CacheKey(inputSize: inputSize, outputSize: outputSize, filter: filter)
        if let weights = cache.withLock({ $0[key] }) { return weights }
        let weights = ResamplingWeights(inputSize: inputSize, outputSize: outputSize, filter: filter)
        guard weights.weights.count * 4 + outputSize * 16 <= 256 << 10 else { return weights }
        cache.withLock { tables in
            if tables.count >= 32 { tables.removeAll(keepingCapacity: true) }
            tables[key] = weights
        }
        return weights
    }

    private struct CacheKey: Hashable {
        let inputSize: Int
        let outputSize: Int
        let filter: ResamplingFilter
    }

    private static let cache = Locked<[CacheKey: ResamplingWeights]>([:])

    init(inputSize: Int, outputSize: Int, filter: ResamplingFilter) {
        let scale = Double(inputSize) / Double(outputSize)
        let filterScale = max(scale, 1)
        let support = filter.support * filterScale
        // No output reads more than the whole input: a forced 7000 -> 1 resize would otherwise size every table for
        // 42,001 taps. Clamped as a double, so that no ratio can overflow the conversion.
        let stride = max(1, Int(min((support * 2).rounded(.up) + 1, Double(max(inputSize, 1)))))
        var starts = [Int](repeating: 0, count: outputSize)
        var counts = [Int](repeating: 1, count: outputSize)
        var weights = [Float](repeating: 0, count: outputSize * stride)
        for output in 0..<outputSize {
            let center = (Double(output) + 0.5) * scale
            let first = min(max(Int((center - support + 0.5).rounded(.down)), 0), inputSize - 1)
            let last = min(Int((center + support + 0.5).rounded(.down)), inputSize)
            let count = min(max(last - first, 1), stride)
            var row = [Double](repeating: 0, count: count)
            for tap in 0..<count {
                row[tap] = filter.weight(at: (Double(first + tap) - center + 0.5) / filterScale)
            }
            let total = row.reduce(0, +)
            starts[output] = first
            counts[output] = count
            for tap in 0..<count {
                weights[output * stride + tap] = total == 0 ? (tap == 0 ? 1 : 0) : Float(row[tap] / total)
            }
        }
        self.init(starts: starts, counts: counts, stride: stride, weights: weights)
    }
}
