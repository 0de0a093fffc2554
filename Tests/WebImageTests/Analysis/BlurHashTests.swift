import Testing

@testable import WebImage

/// BlurHash against hashes the Python `blurhash` package (an independent implementation of the reference
/// algorithm) computed for the same pictures.
@Suite struct BlurHashTests {
    @Test(arguments: [
        ("gradient", 4, 3, "LxH27+2jwzX7m9WYjvf5gIflfOfl"),
        ("gradient", 1, 1, "00H27+"),
        ("gradient", 3, 5, "cxH27+2jwzm9WYjvgIflfOn,Wnjve.fSfP"),
        ("translucent", 4, 3, "LnF$X}2?wxbuqRWEjte=gJfjfQfj"),
        ("translucent", 3, 5, "cnF$X}2?wxqRWEjtgJfjfQsDWqjte;fQfQ"),
        ("tall", 4, 3, "L-HCSp7Djpt6Ypbto5XOXxoOWnj="),
        ("tall", 1, 1, "00HCSp"),
    ])
    func knownHashes(picture: String, x: Int, y: Int, expected: String) throws {
        #expect(try BlurHash.encode(Self.picture(picture), xComponents: x, yComponents: y) == expected)
    }

    @Test func nineByNine() throws {
        let expected =
            "|xH27+2jwzX7a_ofWnofWnm9WYjvf5fSf5fSf5fRgIflfOflfOfkfPfkfPn,WnjvfOfRfPfRfPfRe.fSfPfRfPfRfPfRfQogWnjufPfRfPfR"
            + "fQfQe.fRfPfRfPfQfQfQfRofWnjufQfQfQfPfRfPeofRfRfPfRfPfRfPfR"
        #expect(try BlurHash.encode(AnalysisPictures.gradient, xComponents: 9, yComponents: 9) == expected)
    }

    @Test(arguments: [(0, 3), (3, 0), (10, 1), (1, 10), (-1, 4), (Int.max, Int.min)])
    func componentsOutsideOneToNineAreRefused(x: Int, y: Int) {
        #expect(throws: WebImageError.self) {
            try BlurHash.encode(AnalysisPictures.gradient, xComponents: x, yComponents: y)
        }
    }

    /// A large image is resampled first: its hash is the hash of the resampled copy, and of the right length.
    @Test func largeImagesAreResampledFirst() throws {
        let large = PixelBuffer(width: 1000, height: 500, filledWith: RGBA(red: 200, green: 10, blue: 30))
        let hash = try BlurHash.encode(large, xComponents: 4, yComponents: 3)
        #expect(hash.count == 4 + 2 * 12)
        let small = PixelBuffer(width: 64, height: 32, filledWith: RGBA(red: 200, green: 10, blue: 30))
        #expect(hash == (try BlurHash.encode(small, xComponents: 4, yComponents: 3)))
    }

    static func picture(_ name: String) -> PixelBuffer {
        switch name {
        case "gradient": AnalysisPictures.gradient
        case "translucent": AnalysisPictures.translucent
        case "uneven": AnalysisPictures.uneven
        default: AnalysisPictures.tall
        }
    }
}
