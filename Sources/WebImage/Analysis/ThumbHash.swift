import Foundation

/// The ThumbHash encoder (Evan Wallace, https://evanw.github.io/thumbhash/): about 25 bytes from which a placeholder
/// with the image's aspect ratio, colours and alpha is drawn.
///
/// Evan Wallace's `rgbaToThumbHash`: the pixels composited over their average colour, turned into luminance, two
/// chroma channels and alpha, each reduced to its lowest cosine frequencies. The algorithm takes at most 100x100
/// pixels; larger images are resampled to fit first.
///
/// ```swift
/// let bytes = ThumbHash.encode(image.pixels)
/// ```
public enum ThumbHash {
    /// The largest side the algorithm takes; larger images are resampled to fit in this square first.
    public static let maximumSide = 100

    /// The ThumbHash bytes of `pixels`.
    public static func encode(_ pixels: PixelBuffer) -> [UInt8] {
        let sample = pixels.fitting(in: maximumSide)
        let (w, h) = (sample.width, sample.height)
        let count = w * h
        let rgba = sample.bytes
        var average = SIMD4<Double>()
        for index in 0..<count {
            let alpha = Double(rgba[index * 4 + 3]) / 255
            average.x += alpha / 255 * Double(rgba[index * 4])
            average.y += alpha / 255 * Double(rgba[index * 4 + 1])
            average.z += alpha / 255 * Double(rgba[index * 4 + 2])
            average.w += alpha
        }
        if average.w > 0 {
            average.x /= average.w
            average.y /= average.w
            average.z /= average.w
        }
        let hasAlpha = average.w < Double(count)
        let limit = hasAlpha ? 5.0 : 7.0
        let longest = Double(max(w, h))
        let lx = max(1, jsRound(limit * Double(w) / longest))
        let ly = max(1, jsRound(limit * Double(h) / longest))
        var (l, p, q, a) = ([Double](), [Double](), [Double](), [Double]())
        for index in 0..<count {
            let alpha = Double(rgba[index * 4 + 3]) / 255
            let r = average.x * (1 - alpha) + alpha / 255 * Double(rgba[index * 4])
            let g = average.y * (1 - alpha) + alpha / 255 * Double(rgba[index * 4 + 1])
            let b = average.z * (1 - alpha) + alpha / 255 * Double(rgba[index * 4 + 2])
            l.append((r + g + b) / 3)
            p.append((r + g) / 2 - b)
            q.append(r - g)
            a.append(alpha)
        }
        let luminance = encode(l, width: w, height: h, nx: max(3, lx), ny: max(3, ly))
        let yellowBlue = encode(p, width: w, height: h, nx: 3, ny: 3)
        let redGreen = encode(q, width: w, height: h, nx: 3, ny: 3)
        let opacity = hasAlpha ? encode(a, width: w, height: h, nx: 5, ny: 5) : nil

        let isLandscape = w > h
        let lightness = quantise(63 * luminance.dc) | (quantise(31.5 + 31.5 * yellowBlue.dc) << 6)
        let header24 =
            lightness | (quantise(31.5 + 31.5 * redGreen.dc) << 12) | (quantise(31 * luminance.scale) << 18)
            | ((hasAlpha ? 1 : 0) << 23)
        let sides = Int(isLandscape ? ly : lx) | (quantise(63 * yellowBlue.scale) << 3)
        let header16 = sides | (quantise(63 * redGreen.scale) << 9) | ((isLandscape ? 1 : 0) << 15)
        var hash: [UInt8] = [
            UInt8(header24 & 255), UInt8((header24 >> 8) & 255), UInt8((header24 >> 16) & 255),
            UInt8(header16 & 255), UInt8((header16 >> 8) & 255),
        ]
        if let opacity {
            hash.append(UInt8(truncatingIfNeeded: quantise(15 * opacity.dc) | (quantise(15 * opacity.scale) << 4)))
        }
        let start = hash.count
        let channels = [luminance, yellowBlue, redGreen] + (opacity.map { [$0] } ?? [])
        var acIndex = 0
        for channel in channels {
            for factor in channel.ac {
                let byte = start + (acIndex >> 1)
                if byte == hash.count { hash.append(0) }
                hash[byte] |= UInt8(truncatingIfNeeded: quantise(15 * factor) << ((acIndex & 1) << 2))
                acIndex += 1
            }
        }
        return hash
    }

    /// JavaScript's `Math.round` (halves up) as an integer, for values the algorithm keeps within `0...63`.
    private static func quantise(_ value: Double) -> Int { Int(max(0, min(255, jsRound(value)))) }

    /// JavaScript's `Math.round`: halves round up.
    private static func jsRound(_ value: Double) -> Double { (value + 0.5).rounded(.down) }

    /// One channel's cosine transform: the constant term, the normalised varying terms and their scale.
    private static func encode(
        _ channel: [Double], width w: Int, height h: Int, nx: Double, ny: Double
    ) -> (dc: Double, ac: [Double], scale: Double) {
        var (dc, scale) = (0.0, 0.0)
        var ac: [Double] = []
        var fx = [Double](repeating: 0, count: w)
        var cy = 0.0
        while cy < ny {
            var cx = 0.0
            while cx * ny < nx * (ny - cy) {
                var f = 0.0
                for x in 0..<w { fx[x] = cos(Double.pi / Double(w) * cx * (Double(x) + 0.5)) }
                for y in 0..<h {
                    let fy = cos(Double.pi / Double(h) * cy * (Double(y) + 0.5))
                    for x in 0..<w { f += channel[x + y * w] * fx[x] * fy }
                }
                f /= Double(w * h)
                if cx > 0 || cy > 0 {
                    ac.append(f)
                    scale = max(scale, abs(f))
                } else {
                    dc = f
                }
                cx += 1
            }
            cy += 1
        }
        if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
        return (dc, ac, scale)
    }
}
