import Foundation

/// The BlurHash encoder (https://blurha.sh): a short base-83 string from which a blurred placeholder of the image is
/// drawn.
///
/// The reference algorithm (woltapp/blurhash, `C/encode.c`): a cosine transform of the linear-light RGB pixels into
/// `xComponents` x `yComponents` factors, the first kept as an sRGB colour, the others quantised against their
/// largest magnitude. Alpha is not part of BlurHash: the colour channels are read as they are. Images larger than
/// ``maximumSide`` on a side are first resampled to fit (the hash describes only the lowest frequencies, which a
/// smaller copy keeps), so the work is bounded whatever the image's size.
///
/// ```swift
/// let hash = try BlurHash.encode(image.pixels, xComponents: 4, yComponents: 3)  // "LEHV6nWB2yk8pyo0adR*.7kCMdnj"
/// ```
public enum BlurHash {
    /// The largest side encoded as is; larger images are resampled to fit in this square first.
    public static let maximumSide = 64
    /// The valid component counts on each axis.
    public static let components = 1...9

    /// The BlurHash of `pixels` with `xComponents` horizontal and `yComponents` vertical components (each `1...9`).
    ///
    /// - Throws: ``WebImageError/Code/invalidArgument`` for a component count outside `1...9`.
    public static func encode(
        _ pixels: PixelBuffer, xComponents: Int, yComponents: Int
    ) throws(WebImageError) -> String {
        guard components.contains(xComponents), components.contains(yComponents) else {
            throw WebImageError(.invalidArgument, "BlurHash components must be 1 to 9 on each axis")
        }
        let sample = pixels.fitting(in: maximumSide)
        let factors = Self.factors(of: sample, xComponents: xComponents, yComponents: yComponents)
        var hash = ""
        Base83.append((xComponents - 1) + (yComponents - 1) * 9, length: 1, to: &hash)
        let ac = factors.dropFirst()
        let maximum: Double
        if let largest = ac.flatMap({ [abs($0.x), abs($0.y), abs($0.z)] }).max() {
            let quantised = Int(max(0, min(82, (largest * 166 - 0.5).rounded(.down))))
            maximum = Double(quantised + 1) / 166
            Base83.append(quantised, length: 1, to: &hash)
        } else {
            maximum = 1
            Base83.append(0, length: 1, to: &hash)
        }
        let dc = factors[0]
        Base83.append(
            (SRGB.encode(dc.x) << 16) + (SRGB.encode(dc.y) << 8) + SRGB.encode(dc.z), length: 4, to: &hash)
        for factor in ac {
            func quantise(_ value: Double) -> Int {
                let signed = value / maximum
                let root = (signed < 0 ? -1 : 1) * abs(signed).squareRoot()
                return Int(max(0, min(18, (root * 9 + 9.5).rounded(.down))))
            }
            Base83.append(
                quantise(factor.x) * 19 * 19 + quantise(factor.y) * 19 + quantise(factor.z), length: 2, to: &hash)
        }
        return hash
    }

    /// The cosine factors in the reference order (for each row of components, each column), linear-light RGB.
    static func factors(of pixels: PixelBuffer, xComponents: Int, yComponents: Int) -> [SIMD3<Double>] {
        let (width, height) = (pixels.width, pixels.height)
        let linear = pixels.bytes.map { SRGB.linear[Int($0)] }
        let cosX = (0..<xComponents).map { i in (0..<width).map { cos(Double.pi * Double(i * $0) / Double(width)) } }
        let cosY = (0..<yComponents).map { j in
            (0..<height).map { cos(Double.pi * Double(j * $0) / Double(height)) }
        }
        var factors: [SIMD3<Double>] = []
        factors.reserveCapacity(xComponents * yComponents)
        for j in 0..<yComponents {
            for i in 0..<xComponents {
                var sum = SIMD3<Double>()
                for y in 0..<height {
                    let rowBasis = cosY[j][y]
                    let row = y * width * 4
                    for x in 0..<width {
                        let basis = cosX[i][x] * rowBasis
                        let index = row + x * 4
                        sum += basis * SIMD3(linear[index], linear[index + 1], linear[index + 2])
                    }
                }
                let normalisation: Double = i == 0 && j == 0 ? 1 : 2
                factors.append(sum * (normalisation / Double(width * height)))
            }
        }
        return factors
    }
}
