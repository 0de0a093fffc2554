import Foundation
import Testing

@testable import WebImage

/// Every transformer, over random image sizes and random (often hostile) parameters, either returns an image of the
/// size it promises or throws a typed error; it never traps. Seeded: see ``SeededGenerator``.
@Suite struct TransformerPropertyTests {
    /// Small enough that every case allocates little; the limit logic is the same at any value.
    private let limits = TransformLimits(maxOutputPixels: 250_000)
    private let allowedCodes: Set<WebImageError.Code> = [.invalidArgument, .tooLarge]

    private func buffer(_ width: Int, _ height: Int, using random: inout SeededGenerator) -> PixelBuffer {
        PixelBuffer(width: width, height: height) { output in
            for index in output.indices { output[index] = UInt8.random(in: 0...255, using: &random) }
        }
    }

    /// Runs `transform`; a success must have `expected(result)` true, a failure must be a typed error with an allowed
    /// code, and `mustSucceed` cases must not fail.
    private func check(
        _ transformer: any PixelTransforming, on pixels: PixelBuffer, mustSucceed: Bool,
        expected: (PixelSize) -> Bool
    ) {
        do {
            let result = try transformer.transform(pixels)
            #expect(result.width >= 1 && result.height >= 1)
            #expect(result.bytes.count == result.width * result.height * 4)
            #expect(expected(result.size), "\(transformer.key) on \(pixels.size) gave \(result.size)")
        } catch {
            #expect(allowedCodes.contains(error.code), "\(transformer.key): \(error)")
            #expect(!mustSucceed, "\(transformer.key) on \(pixels.size) failed: \(error)")
        }
    }

    @Test func resizeToASizeKeepsItsPromise() {
        var random = SeededGenerator(seed: SeededGenerator.seed)
        for _ in 0..<SeededGenerator.cases(default: 400) {
            let (w, h) = (random.side(upTo: 48), random.side(upTo: 48))
            let target = PixelSize(
                width: random.hostileInt(ordinary: 1...600), height: random.hostileInt(ordinary: 1...600))
            let mode = ResizeMode.all.randomElement(using: &random)!
            let up = Bool.random(using: &random)
            let resize = Resize(to: target, mode: mode, allowsUpscaling: up, limits: limits)
            let valid = target.width > 0 && target.height > 0
            let (tw, th) = (target.width, target.height)
            let small = valid && Double(tw) * Double(th) <= 250_000
            check(resize, on: buffer(w, h, using: &random), mustSucceed: small) { out in
                switch mode {
                case .contain:
                    return out.width <= tw && out.height <= th && (!up ? out.width <= w && out.height <= h : true)
                        && (out.width == tw || out.height == th || (!up && out == PixelSize(width: w, height: h)))
                case .cover:
                    return out == target || (!up && out.width <= w && out.height <= h)
                default:
                    return out == (up ? target : PixelSize(width: min(tw, w), height: min(th, h)))
                }
            }
        }
    }

    @Test func resizeByAScaleKeepsItsPromise() {
        var random = SeededGenerator(seed: SeededGenerator.seed &+ 1)
        for _ in 0..<SeededGenerator.cases(default: 300) {
            let (w, h) = (random.side(upTo: 48), random.side(upTo: 48))
            let scale = random.hostileDouble(ordinary: 0.01...8)
            let up = Bool.random(using: &random)
            let factor = up ? scale : min(scale, 1)
            let mustSucceed = scale.isFinite && scale > 0 && Double(w) * Double(h) * factor * factor < 200_000
            check(
                Resize(scale: scale, allowsUpscaling: up, limits: limits), on: buffer(w, h, using: &random),
                mustSucceed: mustSucceed
            ) { out in
                out.width == max(1, Int((Double(w) * factor).rounded()))
                    && out.height == max(1, Int((Double(h) * factor).rounded()))
            }
        }
    }

    @Test func shrinkOnLoadSizesAreValid() {
        var random = SeededGenerator(seed: SeededGenerator.seed &+ 2)
        for _ in 0..<SeededGenerator.cases(default: 2000) {
            let source = PixelSize(width: random.hostileInt(ordinary: 1...20_000), height: random.side(upTo: 20_000))
            let target = PixelSize(
                width: random.hostileInt(ordinary: 1...5000), height: random.hostileInt(ordinary: 1...5000))
            let resize = Resize(
                to: target, mode: ResizeMode.all.randomElement(using: &random)!,
                allowsUpscaling: .random(using: &random))
            do {
                let needed = try resize.sourceSizeNeeded(for: source)
                #expect(needed.width >= 1 && needed.width <= source.width, "\(resize.key) of \(source): \(needed)")
                #expect(needed.height >= 1 && needed.height <= source.height, "\(resize.key) of \(source): \(needed)")
            } catch {
                #expect(allowedCodes.contains(error.code))
                #expect(source.width <= 0 || target.width <= 0 || target.height <= 0 || error.code == .tooLarge)
            }
        }
    }

    @Test func cropRotateBlurAndCornersKeepTheirPromise() {
        var random = SeededGenerator(seed: SeededGenerator.seed &+ 3)
        for _ in 0..<SeededGenerator.cases(default: 300) {
            let (w, h) = (random.side(upTo: 40), random.side(upTo: 40))
            let pixels = buffer(w, h, using: &random)
            let rect = PixelRect(
                x: random.hostileInt(ordinary: 0...40), y: random.hostileInt(ordinary: 0...40),
                width: random.hostileInt(ordinary: 1...40), height: random.hostileInt(ordinary: 1...40))
            let inside =
                rect.x >= 0 && rect.y >= 0 && rect.width > 0 && rect.height > 0 && rect.x <= w - rect.width
                && rect.y <= h - rect.height
            check(Crop(to: rect), on: pixels, mustSucceed: inside) { $0 == rect.size }

            let size = PixelSize(
                width: random.hostileInt(ordinary: 1...60), height: random.hostileInt(ordinary: 1...60))
            check(
                Crop(size: size, gravity: Gravity.all.randomElement(using: &random)!), on: pixels,
                mustSucceed: size.width > 0 && size.height > 0
            ) {
                $0 == PixelSize(width: min(size.width, w), height: min(size.height, h))
            }

            let degrees = random.hostileDouble(ordinary: -720...720)
            check(Rotate(degrees: degrees, limits: limits), on: pixels, mustSucceed: degrees.isFinite) { out in
                let quarter = degrees.truncatingRemainder(dividingBy: 90) == 0
                let turns = Int((degrees / 90).truncatingRemainder(dividingBy: 4))
                if quarter { return out == (turns % 2 == 0 ? pixels.size : PixelSize(width: h, height: w)) }
                return out.width >= min(w, h) && out.height >= min(w, h) && out.width <= w + h + 1
                    && out.height <= w + h + 1
            }

            let radius = random.hostileDouble(ordinary: 0...12)
            check(Blur(radius: radius), on: pixels, mustSucceed: radius.isFinite && radius >= 0 && radius <= 100) {
                $0 == pixels.size
            }

            let corner = random.hostileDouble(ordinary: 0...30)
            let border = random.hostileDouble(ordinary: 0...5)
            let cornersValid = corner.isFinite && corner >= 0 && border.isFinite && border >= 0
            check(RoundCorners(radius: corner, borderWidth: border), on: pixels, mustSucceed: cornersValid) {
                $0 == pixels.size
            }
        }
    }
}
