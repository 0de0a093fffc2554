import Foundation
import Testing
import WebImage
import WebImageTesting

/// The formats of issue 25 through the manager: each fixture is downloaded, decoded and transformed, encoded for the
/// disk in its own format (as PNG where there is no encoder: SVG, and HEIC without libheif's x265 plugin), and read
/// back from the disk by a second manager.
@Suite struct ManagerFormatsTests {
    @Test(arguments: [
        "tiff_rgba_unassociated.tif", "tiff_rgb_jpeg.tif", "bmp_v5_alpha.bmp", "bmp_rle8.bmp", "ico_png.ico",
        "cur_bmp.cur", "svg_shapes.svg", "jxl_alpha.jxl", "jxl_meta_brob.jxl", "heic_alpha.heic",
    ])
    func aFormatIsDecodedTransformedStoredAndReadBack(_ name: String) async throws {
        let data = try FormatsFixture.image(name)
        let format = ImageFormat.sniff(data)
        let stored = ImageCoders.default.canEncode(format) ? format : .png
        try await withManager { harness in
            harness.server.register(data, at: "/\(name)", contentType: format.mimeType)
            let url = harness.url("/\(name)")
            let transformer = CountingTransformer(size: 8)
            let first = try await harness.manager.image(for: url, transformer: transformer)
            #expect(first.image?.size == PixelSize(width: 8, height: 8))
            #expect(first.image?.format == format)
            await harness.manager.waitForPendingStores()
            let other = ManagerHarness.manager(
                loader: harness.loader, directory: harness.directory, coder: harness.coder)
            let second = try await other.image(for: url, transformer: transformer)
            #expect(second.cacheType == .disk)
            #expect(second.image?.size == PixelSize(width: 8, height: 8))
            #expect(second.image?.format == stored, "encoded for the disk as \(stored)")
            #expect(harness.server.requestCount("/\(name)") == 1)
        }
    }
}
