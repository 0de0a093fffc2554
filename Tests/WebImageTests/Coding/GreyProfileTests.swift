import Foundation
import Testing

@testable import WebImage

/// Grey ICC profiles on greyscale images: applied to the grey levels (a linear profile brightens mid greys, an L* one
/// darkens them slightly), never kept on the RGBA pixels, ignored on colour pixels. The fixtures' references come
/// from `vips icc_transform` (the formats manifest).
@Suite struct GreyProfileTests {
    private func profile(of name: String) throws -> Data {
        let jpeg = try FormatsFixture.image(name)
        return try #require(jpeg.withUnsafeBytes { ICCProfileReader.jpeg($0) })
    }

    @Test(arguments: [("jpeg_gray_linear.jpg", 188), ("jpeg_gray_lstar.jpg", 119)])
    func midGreyGoesThroughTheProfile(name: String, expected: Int) throws {
        let transform = try #require(ColorTransforms.transform(for: try profile(of: name), source: .grey))
        var pixel: [UInt8] = [128, 128, 128, 77]
        pixel.withUnsafeMutableBufferPointer { transform.apply($0) }
        #expect(abs(Int(pixel[0]) - expected) <= 1, "\(pixel)")
        #expect(pixel[0] == pixel[1] && pixel[1] == pixel[2] && pixel[3] == 77)
    }

    @Test func aGreyProfileDoesNotDescribeColourPixels() throws {
        #expect(ColorTransforms.transform(for: try profile(of: "jpeg_gray_linear.jpg"), source: .rgba) == nil)
        #expect(ColorTransforms.transform(for: try profile(of: "jpeg_p3.jpg"), source: .grey) == nil)
    }

    @Test func greyImagesConvertEvenWhenProfilesAreKept() throws {
        let data = try FormatsFixture.image("jpeg_gray_linear.jpg")
        let converted = try ImageCoders.default.decode(data, options: .default)
        let kept = try ImageCoders.default.decode(data, options: DecodingOptions(keepsColorProfile: true))
        #expect(kept.colorProfile == nil)
        #expect(kept.pixels == converted.pixels)
        let reference = try FormatsFixture.reference("jpeg_gray_linear.jpg")
        #expect(ReferenceImage.difference(converted.pixels, reference).mean < 1)
    }
}
