import Foundation
import Testing

@testable import WebImage

/// Converting to sRGB after a shrinking resize (decode with ``DecodingOptions/keepsColorProfile``, resize, then
/// ``Image/convertedToSRGB()``) converts a fraction of the pixels; resampling in the source's encoding instead of
/// sRGB's changes edges slightly, within the colour fixtures' tolerance of their tools' references.
@Suite struct ColorDeferralTests {
    @Test(arguments: [
        "jpeg_p3.jpg", "jpeg_adobergb.jpg", "jpeg_prophoto.jpg", "png_p3.png", "png_adobergb_alpha.png",
        "webp_p3.webp", "avif_p3.avif", "heic_p3.heic",
    ])
    func resizeThenConvertMatchesTheReference(name: String) throws {
        let data = try FormatsFixture.image(name)
        let source = try ImageCoders.default.info(of: data).uprightSize
        let resize = Resize(to: PixelSize(width: source.width / 2, height: source.height / 2), mode: .fill)
        let target = try resize.minimumSourceSize(for: source)
        let kept = try ImageCoders.default.decode(
            data, options: DecodingOptions(targetSize: target, keepsColorProfile: true))
        #expect(kept.colorProfile != nil)
        let deferred = try resize.transform(kept, shrunkFrom: source).convertedToSRGB()
        #expect(deferred.colorProfile == nil)
        let expected = try resize.transform(Image(pixels: try FormatsFixture.reference(name)))
        try #require(deferred.size == expected.size)
        let difference = ReferenceImage.difference(deferred.pixels, expected.pixels)
        #expect(difference.mean <= 1.5, "mean difference \(difference.mean)")
        #expect(difference.max <= 48, "max difference \(difference.max)")
        // Without deferring, the same pixels would have kept their source colours: the conversion did something.
        let unconverted = try resize.transform(kept, shrunkFrom: source)
        #expect(ReferenceImage.difference(unconverted.pixels, expected.pixels).max > 10)
    }
}
