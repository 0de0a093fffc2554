import Foundation
import Testing

@testable import WebImage

/// Every analysis, over random pixels of random sizes and random (often hostile) parameters, answers in its promised
/// shape or throws ``WebImageError/Code/invalidArgument``; it never traps. Seeded: see ``SeededGenerator``.
@Suite struct AnalysisPropertyTests {
    private func buffer(_ width: Int, _ height: Int, using random: inout SeededGenerator) -> PixelBuffer {
        let flat = Int.random(in: 0..<3, using: &random) == 0
        let color = RGBA(
            red: .random(in: 0...255, using: &random), green: .random(in: 0...255, using: &random),
            blue: .random(in: 0...255, using: &random), alpha: [0, 255, 128].randomElement(using: &random)!)
        if flat { return PixelBuffer(width: width, height: height, filledWith: color) }
        return PixelBuffer(width: width, height: height) { output in
            for index in output.indices { output[index] = UInt8.random(in: 0...255, using: &random) }
        }
    }

    @Test func blurHashKeepsItsPromise() {
        var random = SeededGenerator(seed: SeededGenerator.seed)
        for _ in 0..<SeededGenerator.cases(default: 150) {
            let pixels = buffer(random.side(upTo: 160), random.side(upTo: 160), using: &random)
            let (x, y) = (random.hostileInt(ordinary: 0...10), random.hostileInt(ordinary: 0...10))
            do {
                let hash = try BlurHash.encode(pixels, xComponents: x, yComponents: y)
                #expect((1...9).contains(x) && (1...9).contains(y))
                #expect(hash.count == 4 + 2 * x * y)
                #expect(hash.allSatisfy { Base83.digits.contains($0) })
            } catch {
                #expect(error.code == .invalidArgument && !((1...9).contains(x) && (1...9).contains(y)))
            }
        }
    }

    @Test func hashesAndColorsKeepTheirPromises() {
        var random = SeededGenerator(seed: SeededGenerator.seed &+ 1)
        for _ in 0..<SeededGenerator.cases(default: 60) {
            let pixels = buffer(random.side(upTo: 300), random.side(upTo: 300), using: &random)
            let thumb = ThumbHash.encode(pixels)
            #expect((5...30).contains(thumb.count), "\(pixels.size): \(thumb.count) bytes")
            #expect(PerceptualHash(pixels).hex.count == 16)
            let average = pixels.averageColor()
            #expect(average == .clear || average.alpha > 0)
            let colors = DominantColors(pixels, buildsMissing: Bool.random(using: &random))
            let found = [colors.vibrant, colors.lightVibrant, colors.darkVibrant, colors.muted, colors.lightMuted]
            #expect(found.allSatisfy { $0 == nil || $0?.alpha == 255 })
            let count = random.hostileInt(ordinary: 0...300)
            do {
                let palette = try pixels.palette(maximumColors: count)
                #expect((2...256).contains(count) && !palette.isEmpty && palette.count <= count)
            } catch {
                #expect(error.code == .invalidArgument && !(2...256).contains(count))
            }
        }
    }
}
