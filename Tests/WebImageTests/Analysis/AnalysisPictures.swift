@testable import WebImage

/// The pictures the analysis vectors were computed on, made the same way by the independent implementations (the
/// Python `blurhash` and `imagehash` packages, Evan Wallace's JavaScript ThumbHash encoder).
enum AnalysisPictures {
    static func make(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> (Int, Int, Int, Int)) -> PixelBuffer {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b, a) = pixel(x, y)
                bytes += [UInt8(r), UInt8(g), UInt8(b), UInt8(a)]
            }
        }
        return PixelBuffer(width: width, height: height, bytes: bytes)
    }

    /// 32x24, opaque.
    static let gradient = make(32, 24) { x, y in ((x * 8) % 256, (y * 10) % 256, ((x + y) * 5) % 256, 255) }
    /// 20x20, alpha from 0 to 228.
    static let translucent = make(20, 20) { x, y in (x * 12, y * 12, 128, (x + y) * 6) }
    /// 20x16, uneven alpha (0 to 255, no symmetry).
    static let uneven = make(20, 16) { x, y in
        ((x * 12) % 256, (y * y * 3) % 256, (x * y * 7) % 256, (x * 13 + y * 7) % 256)
    }
    /// 12x40, opaque.
    static let tall = make(12, 40) { x, y in ((x * 20 + y) % 256, (255 - y * 6) % 256, (x * y) % 256, 255) }
    /// 32x32 grey.
    static let grey = make(32, 32) { x, y in
        let v = (x * x + 21 * y + x * y) % 256
        return (v, v, v, 255)
    }
    /// 32x32 grey with a checkerboard.
    static let checkered = make(32, 32) { x, y in
        let v = (x * 9 + y * 5 + ((x / 4 + y / 4) % 2) * 60) % 256
        return (v, v, v, 255)
    }
}
