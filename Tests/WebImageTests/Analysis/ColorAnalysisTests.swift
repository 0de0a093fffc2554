import Testing

@testable import WebImage

/// Average colour, dominant colours and palettes on pictures whose answers are known by construction.
@Suite struct ColorAnalysisTests {
    /// Half opaque red, half fully transparent green: the transparent half is left out unless asked.
    @Test func averageIgnoresTransparentPixels() {
        let pixels = AnalysisPictures.make(4, 2) { _, y in y == 0 ? (255, 0, 0, 255) : (0, 255, 0, 0) }
        #expect(pixels.averageColor() == RGBA(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(pixels.averageColor(ignoringTransparent: false) == RGBA(red: 128, green: 128, blue: 0, alpha: 128))
        #expect(PixelBuffer(width: 3, height: 3, filledWith: .clear).averageColor() == .clear)
    }

    @Test func averageRoundsToNearest() {
        let pixels = AnalysisPictures.make(3, 1) { x, _ in (x == 0 ? 1 : 0, x == 0 ? 2 : 0, 0, 255) }
        #expect(pixels.averageColor() == RGBA(red: 0, green: 1, blue: 0, alpha: 255))
    }

    /// Four bands, each one target's kind of colour: every target finds its own band.
    @Test func dominantColorsFindEachKind() {
        let bands: [(Int, Int, Int)] = [(230, 30, 30), (250, 170, 170), (90, 10, 10), (140, 120, 115), (60, 55, 52)]
        let pixels = AnalysisPictures.make(50, 50) { _, y in
            let (r, g, b) = bands[y / 10]
            return (r, g, b, 255)
        }
        let colors = DominantColors(pixels)
        #expect(colors.vibrant == RGBA(red: 230, green: 30, blue: 30))
        #expect(colors.lightVibrant == RGBA(red: 250, green: 170, blue: 170))
        #expect(colors.darkVibrant == RGBA(red: 90, green: 10, blue: 10))
        #expect(colors.muted == RGBA(red: 140, green: 120, blue: 115))
        #expect(colors.darkMuted == RGBA(red: 60, green: 55, blue: 52))
        #expect(colors.lightMuted == nil)
    }

    /// One vibrant colour alone: the others are missing, and built from it with `buildsMissing`.
    @Test func buildMissedDerivesTheOthers() {
        let pixels = PixelBuffer(width: 20, height: 20, filledWith: RGBA(red: 30, green: 200, blue: 60))
        let plain = DominantColors(pixels)
        #expect(plain.vibrant == RGBA(red: 30, green: 200, blue: 60))
        #expect(plain.darkVibrant == nil && plain.lightMuted == nil)
        let built = DominantColors(pixels, buildsMissing: true)
        #expect(built.vibrant == plain.vibrant)
        let dark = HSL(built.darkVibrant!)
        let light = HSL(built.lightVibrant!)
        #expect(abs(dark.lightness - 0.26) < 0.01 && abs(light.lightness - 0.74) < 0.01)
        #expect(abs(HSL(built.muted!).saturation - 0.3) < 0.02)
        #expect(built.darkMuted != nil && built.lightMuted != nil)
    }

    @Test func emptyOrWhiteImagesHaveNoDominantColors() {
        #expect(DominantColors(PixelBuffer(width: 8, height: 8, filledWith: .clear)) == DominantColors())
        #expect(
            DominantColors(PixelBuffer(width: 8, height: 8, filledWith: .white), buildsMissing: true)
                == DominantColors())
    }

    @Test func hslRoundTrips() {
        for color in [
            RGBA(red: 12, green: 200, blue: 99), RGBA(red: 255, green: 0, blue: 128), RGBA(red: 7, green: 7, blue: 7),
        ] {
            #expect(HSL(color).rgba == color)
        }
    }

    /// A four-colour picture gives those four colours, transparency included.
    @Test func paletteOfFewColours() throws {
        let colors = [RGBA(red: 255, green: 0, blue: 0), RGBA(red: 0, green: 0, blue: 255), .white, .clear]
        let pixels = AnalysisPictures.make(16, 16) { x, y in
            let c = colors[(x / 8) + (y / 8) * 2]
            return (Int(c.red), Int(c.green), Int(c.blue), Int(c.alpha))
        }
        let palette = try pixels.palette(maximumColors: 16)
        #expect(Set(palette.filter { $0.alpha == 255 }) == Set(colors.dropLast()))
        #expect(palette.contains { $0.alpha == 0 })
        #expect(try pixels.palette(maximumColors: 2).count <= 2)
        #expect(throws: WebImageError.self) { try pixels.palette(maximumColors: 1) }
        #expect(throws: WebImageError.self) { try pixels.palette(maximumColors: 257) }
    }
}
