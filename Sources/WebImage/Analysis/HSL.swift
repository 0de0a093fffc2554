/// A colour as hue, saturation and lightness, each 0...1, as vibrant palettes compare swatches.
struct HSL: Equatable {
    var hue: Double
    var saturation: Double
    var lightness: Double

    init(hue: Double, saturation: Double, lightness: Double) {
        self.hue = hue
        self.saturation = saturation
        self.lightness = lightness
    }

    init(_ color: RGBA) {
        let (r, g, b) = (Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255)
        let (high, low) = (max(r, g, b), min(r, g, b))
        lightness = (high + low) / 2
        guard high != low else {
            (hue, saturation) = (0, 0)
            return
        }
        let delta = high - low
        saturation = lightness > 0.5 ? delta / (2 - high - low) : delta / (high + low)
        switch high {
        case r: hue = ((g - b) / delta + (g < b ? 6 : 0)) / 6
        case g: hue = ((b - r) / delta + 2) / 6
        default: hue = ((r - g) / delta + 4) / 6
        }
    }

    /// The opaque colour.
    var rgba: RGBA {
        guard saturation > 0 else {
            let grey = UInt8(clamping: Int((lightness * 255).rounded()))
            return RGBA(red: grey, green: grey, blue: grey)
        }
        let q = lightness < 0.5 ? lightness * (1 + saturation) : lightness + saturation - lightness * saturation
        let p = 2 * lightness - q
        func channel(_ offset: Double) -> UInt8 {
            var t = hue + offset
            if t < 0 { t += 1 }
            if t > 1 { t -= 1 }
            let value: Double
            if t < 1.0 / 6 {
                value = p + (q - p) * 6 * t
            } else if t < 0.5 {
                value = q
            } else if t < 2.0 / 3 {
                value = p + (q - p) * (2.0 / 3 - t) * 6
            } else {
                value = p
            }
            return UInt8(clamping: Int((value * 255).rounded()))
        }
        return RGBA(red: channel(1.0 / 3), green: channel(0), blue: channel(-1.0 / 3))
    }
}
