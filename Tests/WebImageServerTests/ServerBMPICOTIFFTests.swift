import Foundation
import Testing
import WebImage

@testable import WebImageServer

/// BMP, ICO and TIFF results and sources, as imgproxy writes and reads them.
@Suite("Server: BMP, ICO and TIFF")
struct ServerBMPICOTIFFTests {
    @Test(arguments: [
        ("bmp", "image/bmp", ImageFormat.bmp), ("ico", "image/x-icon", .ico), ("tiff", "image/tiff", .tiff),
    ])
    func aResultInTheFormatTheURLNames(ext: String, type: String, format: ImageFormat) async throws {
        try await ServerHarness.run { harness in
            let response = try await harness.get(harness.url("rs:fit:50:50", "/alpha.png", ext: ext))
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == type)
            let bytes = Data(response.body.readableBytesView)
            #expect(ImageFormat.sniff(bytes) == format)
            let image = try ServerHarness.image(response)
            #expect(max(image.width, image.height) == 50)
            #expect(!image.isOpaque, "each keeps the alpha channel")
        }
    }

    @Test func aBMPSourceWithoutAFormatBecomesThePreferredOne() async throws {
        let bmp = try ImageCoders.default.encode(Image(pixels: TestImages.geometry), as: .bmp, options: .default)
        try await ServerHarness.run { harness in
            harness.origin.register(bmp, at: "/geometry.bmp")
            let response = try await harness.get(harness.url("w:100", "/geometry.bmp"), headers: [:])
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "image/jpeg", "BMP is not a preferred format by default")
            #expect(try ServerHarness.image(response).width == 100)
        }
    }
}
