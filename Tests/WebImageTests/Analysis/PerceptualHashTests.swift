import Testing

@testable import WebImage

/// The perceptual hash against Python's `imagehash.phash` for the same 32x32 grey pictures (no resampling on
/// either side, so the bits must be equal).
@Suite struct PerceptualHashTests {
    @Test func knownHashes() {
        #expect(PerceptualHash(AnalysisPictures.grey).hex == "8f06030f03077ffe")
        #expect(PerceptualHash(AnalysisPictures.checkered).hex == "c11db4a535e6ad29")
    }

    @Test func distanceCountsDifferentBits() {
        let a = PerceptualHash(value: 0b1011)
        #expect(a.distance(to: PerceptualHash(value: 0b0001)) == 2)
        #expect(a.distance(to: a) == 0)
        #expect(PerceptualHash(value: 0).hex == "0000000000000000")
    }

    /// A resized copy of a picture hashes close to the picture itself; an unrelated one does not.
    @Test func resizedCopiesStayClose() {
        let picture = AnalysisPictures.make(200, 160) { x, y in
            let v = (x / 25 + y / 20) % 2 == 0 ? 230 : 20
            return (v, v / 2, 255 - v, 255)
        }
        let smaller = Resampler().resample(picture, to: PixelSize(width: 100, height: 80))
        let other = AnalysisPictures.make(200, 160) { x, _ in (x, x, x, 255) }
        #expect(PerceptualHash(picture).distance(to: PerceptualHash(smaller)) <= 6)
        #expect(PerceptualHash(picture).distance(to: PerceptualHash(other)) > 12)
    }
}
