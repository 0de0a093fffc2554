/// An image's six dominant colours, as vibrant palettes (Android's `Palette`, node-vibrant) and imgproxy's
/// `dominant_colors` info option name them: vibrant, light vibrant, dark vibrant, muted, light muted, dark muted.
///
/// The pixels (resampled to fit in ``maximumSide`` squared; pixels with alpha below 125 and near-white ones left
/// out, as node-vibrant filters them) are reduced to at most 64 swatches by median cut; each of the six targets then
/// takes the unused swatch within its lightness and saturation range that is closest to its target lightness and
/// saturation, weighted by population (node-vibrant's default generator and weights). A target no swatch fits is
/// `nil`, unless `buildsMissing` (imgproxy's `build_missed`) derives it from a found one: a missing vibrant colour
/// from the dark or light vibrant one at the normal target lightness, a missing dark or light vibrant from the vibrant
/// one at the dark or light target lightness (from the dark or light muted one when no vibrant colour was found),
/// and a missing muted colour from its vibrant counterpart at the muted target saturation.
public struct DominantColors: Hashable, Sendable {
    /// Saturated, of middle lightness.
    public var vibrant: RGBA?
    /// Saturated and light.
    public var lightVibrant: RGBA?
    /// Saturated and dark.
    public var darkVibrant: RGBA?
    /// Unsaturated, of middle lightness.
    public var muted: RGBA?
    /// Unsaturated and light.
    public var lightMuted: RGBA?
    /// Unsaturated and dark.
    public var darkMuted: RGBA?

    /// The largest side analysed; larger images are resampled to fit in this square first.
    public static let maximumSide = 256

    /// The dominant colours of `pixels`; with `buildsMissing`, targets no swatch fits are derived from found ones.
    public init(_ pixels: PixelBuffer, buildsMissing: Bool = false) {
        let quantizer = ColorQuantizer(pixels.fitting(in: Self.maximumSide)) { color in
            color.alpha >= 125 && !(color.red > 250 && color.green > 250 && color.blue > 250)
        }
        let swatches = quantizer.swatches(colors: 64).map { (hsl: HSL($0.color), color: $0.color, $0.population) }
        let most = swatches.map { $0.2 }.max() ?? 1
        var used = Set<Int>()
        func pick(_ target: Target) -> HSL? {
            var best: (index: Int, score: Double)?
            for (index, swatch) in swatches.enumerated() where !used.contains(index) {
                let (s, l) = (swatch.hsl.saturation, swatch.hsl.lightness)
                guard target.saturations.contains(s), target.lightnesses.contains(l) else { continue }
                let score =
                    ((1 - abs(s - target.saturation)) * 3 + (1 - abs(l - target.lightness)) * 6.5
                        + Double(swatch.2) / Double(most) * 0.5) / 10
                if score > best?.score ?? -1 { best = (index, score) }
            }
            guard let best else { return nil }
            used.insert(best.index)
            return swatches[best.index].hsl
        }
        var found = (
            vibrant: pick(.vibrant), lightVibrant: pick(.lightVibrant), darkVibrant: pick(.darkVibrant),
            muted: pick(.muted), lightMuted: pick(.lightMuted), darkMuted: pick(.darkMuted)
        )
        if buildsMissing {
            func with(_ color: HSL?, lightness: Double? = nil, saturation: Double? = nil) -> HSL? {
                guard var color else { return nil }
                if let lightness { color.lightness = lightness }
                if let saturation { color.saturation = saturation }
                return color
            }
            if found.vibrant == nil && found.darkVibrant == nil && found.lightVibrant == nil {
                found.darkVibrant = with(found.darkMuted, lightness: Target.darkVibrant.lightness)
                found.lightVibrant = with(found.lightMuted, lightness: Target.lightVibrant.lightness)
            }
            found.vibrant = found.vibrant ?? with(found.darkVibrant ?? found.lightVibrant, lightness: 0.5)
            found.darkVibrant = found.darkVibrant ?? with(found.vibrant, lightness: Target.darkVibrant.lightness)
            found.lightVibrant = found.lightVibrant ?? with(found.vibrant, lightness: Target.lightVibrant.lightness)
            let muted = Target.muted.saturation
            found.muted = found.muted ?? with(found.vibrant, saturation: muted)
            found.darkMuted = found.darkMuted ?? with(found.darkVibrant, saturation: muted)
            found.lightMuted = found.lightMuted ?? with(found.lightVibrant, saturation: muted)
        }
        func color(_ hsl: HSL?) -> RGBA? {
            guard let hsl else { return nil }
            // A found swatch keeps its own colour (an HSL round trip may move a channel by one).
            return swatches.first { $0.hsl == hsl }?.color ?? hsl.rgba
        }
        vibrant = color(found.vibrant)
        lightVibrant = color(found.lightVibrant)
        darkVibrant = color(found.darkVibrant)
        muted = color(found.muted)
        lightMuted = color(found.lightMuted)
        darkMuted = color(found.darkMuted)
    }

    /// Creates colours from known values.
    public init(
        vibrant: RGBA? = nil, lightVibrant: RGBA? = nil, darkVibrant: RGBA? = nil, muted: RGBA? = nil,
        lightMuted: RGBA? = nil, darkMuted: RGBA? = nil
    ) {
        self.vibrant = vibrant
        self.lightVibrant = lightVibrant
        self.darkVibrant = darkVibrant
        self.muted = muted
        self.lightMuted = lightMuted
        self.darkMuted = darkMuted
    }

    /// One target: its lightness and saturation, and the ranges a swatch must be in (node-vibrant's defaults).
    private struct Target {
        let lightness: Double
        let lightnesses: ClosedRange<Double>
        let saturation: Double
        let saturations: ClosedRange<Double>

        static let vibrant = Target(lightness: 0.5, lightnesses: 0.3...0.7, saturation: 1, saturations: 0.35...1)
        static let lightVibrant = Target(lightness: 0.74, lightnesses: 0.55...1, saturation: 1, saturations: 0.35...1)
        static let darkVibrant = Target(lightness: 0.26, lightnesses: 0...0.45, saturation: 1, saturations: 0.35...1)
        static let muted = Target(lightness: 0.5, lightnesses: 0.3...0.7, saturation: 0.3, saturations: 0...0.4)
        static let lightMuted = Target(lightness: 0.74, lightnesses: 0.55...1, saturation: 0.3, saturations: 0...0.4)
        static let darkMuted = Target(lightness: 0.26, lightnesses: 0...0.45, saturation: 0.3, saturations: 0...0.4)
    }
}
