import WebImage

/// Turns fuzzer bytes into transformers with hostile parameters (see ``FuzzEntries/transform(_:)``).
public struct FuzzParameters {
    private var bytes: [UInt8]
    private var index = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes.isEmpty ? [0] : bytes }

    private mutating func next() -> UInt8 {
        defer { index += 1 }
        return bytes[index % bytes.count]
    }

    private static let doubles: [Double] = [
        0, 1, 2, 3, 37, 90, 180, 211, 1000, 45.5, 0.5, 1e-30, -1, -90, 1e30, -1e30, .infinity, -.infinity, .nan,
        .greatestFiniteMagnitude, .leastNonzeroMagnitude, 100, 101, 360.0001,
    ]
    private static let ints: [Int] = [0, 1, 2, 3, 7, 16, 37, 211, 1000, 20_000, 100_000, -1, -100, .max, .min, 1 << 31]

    private mutating func double() -> Double { Self.doubles[Int(next()) % Self.doubles.count] }
    private mutating func int() -> Int { Self.ints[Int(next()) % Self.ints.count] }
    private mutating func size() -> PixelSize { PixelSize(width: int(), height: int()) }

    /// The next transformer; small output limits keep each run fast.
    public mutating func transformer() -> any ImageTransforming {
        let limits = TransformLimits(maxOutputPixels: 1_000_000)
        let gravity = Gravity.all[Int(next()) % Gravity.all.count]
        switch next() % 10 {
        case 0: return Resize(to: size(), mode: ResizeMode.all[Int(next()) % 3], gravity: gravity, limits: limits)
        case 1: return Resize(to: size(), mode: ResizeMode.all[Int(next()) % 3], allowsUpscaling: true, limits: limits)
        case 2: return Resize(scale: double(), allowsUpscaling: next() & 1 == 0, limits: limits)
        case 3: return Crop(size: size(), gravity: gravity)
        case 4: return Crop(to: PixelRect(x: int(), y: int(), width: int(), height: int()))
        case 5: return Rotate(degrees: double(), limits: limits)
        case 6: return Blur(radius: double())
        case 7: return RoundCorners(radius: double(), borderWidth: double())
        case 8: return Flip(horizontal: next() & 1 == 0)
        default: return Grayscale()
        }
    }
}
