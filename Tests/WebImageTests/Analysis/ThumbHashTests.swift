import Testing

@testable import WebImage

/// ThumbHash against the bytes Evan Wallace's JavaScript encoder (`rgbaToThumbHash`, run under Node) gave for the
/// same pictures; the opaque one also matches the Python `thumbhash` package. The pictures have no symmetry: in a
/// symmetric one a term is zero in theory, and its rounding tie is decided by the last bit of `cos` (V8's or glibc's).
@Suite struct ThumbHashTests {
    @Test(arguments: [
        ("gradient", "9F170E0D9A7077777178788787778787BFB40BF788"),
        ("uneven", "DC27860C8C276178908A926A093B99916F5B90779388977807"),
        ("tall", "9CE90D5A1A607A6979787778A87F1A0777"),
    ])
    func knownHashes(picture: String, expected: String) {
        let hex = ThumbHash.encode(BlurHashTests.picture(picture)).map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }
        #expect(hex.joined() == expected)
    }

    /// Images larger than 100x100 are resampled to fit, keeping the orientation flag (landscape) of the source.
    @Test func largeImagesAreResampledFirst() {
        let large = PixelBuffer(width: 900, height: 300, filledWith: RGBA(red: 10, green: 120, blue: 240))
        let hash = ThumbHash.encode(large)
        #expect(hash.count >= 5)
        #expect(hash[4] & 0x80 != 0)
        #expect(hash == ThumbHash.encode(PixelBuffer(width: 100, height: 33, filledWith: large[0, 0])))
    }

    @Test func onePixel() {
        #expect(ThumbHash.encode(PixelBuffer(width: 1, height: 1, filledWith: .clear)).count >= 6)
    }
}
