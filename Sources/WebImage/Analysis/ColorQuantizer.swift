/// Median-cut colour quantisation (MMCQ, as Leptonica, color-thief and vibrant palettes do it): colours counted in
/// a 5-bit-per-channel histogram, boxes of that colour cube split at the population median along their longest side,
/// first the most populous boxes, then (for the last quarter) those with the most population times volume.
struct ColorQuantizer {
    /// One box of colours: its average colour and how many pixels it holds.
    struct Swatch: Equatable {
        var color: RGBA
        var population: Int
    }

    private struct Box {
        var low: SIMD3<Int>
        var high: SIMD3<Int>
        var population = 0

        var volume: Int { (high.x - low.x + 1) * (high.y - low.y + 1) * (high.z - low.z + 1) }
    }

    private static let bits = 5
    private var counts = [Int](repeating: 0, count: 1 << (3 * bits))
    private var sums = [SIMD3<Int>](repeating: .zero, count: 1 << (3 * bits))

    /// Counts the pixels `include` accepts.
    init(_ pixels: PixelBuffer, include: (RGBA) -> Bool) {
        let bytes = pixels.bytes
        var index = 0
        while index < bytes.count {
            let color = RGBA(
                red: bytes[index], green: bytes[index + 1], blue: bytes[index + 2], alpha: bytes[index + 3])
            index += 4
            guard include(color) else { continue }
            let bin = Self.bin(Int(color.red) >> 3, Int(color.green) >> 3, Int(color.blue) >> 3)
            counts[bin] += 1
            sums[bin] &+= SIMD3(Int(color.red), Int(color.green), Int(color.blue))
        }
    }

    private static func bin(_ r: Int, _ g: Int, _ b: Int) -> Int { (r << (2 * bits)) | (g << bits) | b }

    /// At most `colors` swatches, most populous first.
    func swatches(colors: Int) -> [Swatch] {
        let first = shrunk(Box(low: .zero, high: SIMD3(repeating: 31)))
        guard first.population > 0 else { return [] }
        var boxes = [first]
        let byPopulation = max(1, Int((Double(colors) * 0.75).rounded(.down)))
        split(&boxes, until: byPopulation) { $0.population }
        split(&boxes, until: colors) { $0.population * $0.volume }
        return boxes.compactMap(swatch).sorted { $0.population > $1.population }
    }

    /// Splits the box ranked first by `rank` until there are `target` boxes or none can be split.
    private func split(_ boxes: inout [Box], until target: Int, rank: (Box) -> Int) {
        var stuck = 0
        while boxes.count < target, stuck < boxes.count {
            boxes.sort { rank($0) > rank($1) }
            let box = boxes.removeFirst()
            if let halves = cut(box) {
                boxes.append(halves.0)
                boxes.append(halves.1)
                stuck = 0
            } else {
                boxes.append(box)
                stuck += 1
            }
        }
    }

    /// The two halves of `box` split at its population median along its longest side; `nil` for a single cell.
    private func cut(_ box: Box) -> (Box, Box)? {
        let extent = box.high &- box.low
        guard extent.max() > 0 else { return nil }
        let axis = extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2)
        var layers = [Int](repeating: 0, count: extent[axis] + 1)
        for r in box.low.x...box.high.x {
            for g in box.low.y...box.high.y {
                for b in box.low.z...box.high.z {
                    layers[SIMD3(r, g, b)[axis] - box.low[axis]] += counts[Self.bin(r, g, b)]
                }
            }
        }
        var running = 0
        var cut = 0
        for (offset, count) in layers.enumerated().dropLast() {
            running += count
            cut = offset
            if running * 2 >= box.population { break }
        }
        var left = box
        var right = box
        left.high[axis] = box.low[axis] + cut
        right.low[axis] = box.low[axis] + cut + 1
        return (shrunk(left), shrunk(right))
    }

    /// `box` narrowed to the cells that hold pixels, with its population; the first and last layer along every side
    /// of a shrunk box hold pixels, so a cut never leaves an empty half.
    private func shrunk(_ box: Box) -> Box {
        var result = Box(low: box.high, high: box.low)
        for r in box.low.x...box.high.x {
            for g in box.low.y...box.high.y {
                for b in box.low.z...box.high.z where counts[Self.bin(r, g, b)] > 0 {
                    let cell = SIMD3(r, g, b)
                    result.low = pointwiseMin(result.low, cell)
                    result.high = pointwiseMax(result.high, cell)
                    result.population += counts[Self.bin(r, g, b)]
                }
            }
        }
        return result.population > 0 ? result : Box(low: box.low, high: box.low)
    }

    private func swatch(_ box: Box) -> Swatch? {
        guard box.population > 0 else { return nil }
        var sum = SIMD3<Int>.zero
        for r in box.low.x...box.high.x {
            for g in box.low.y...box.high.y {
                for b in box.low.z...box.high.z { sum &+= sums[Self.bin(r, g, b)] }
            }
        }
        let mean = (sum &+ box.population / 2) / box.population
        return Swatch(
            color: RGBA(red: UInt8(clamping: mean.x), green: UInt8(clamping: mean.y), blue: UInt8(clamping: mean.z)),
            population: box.population)
    }
}
