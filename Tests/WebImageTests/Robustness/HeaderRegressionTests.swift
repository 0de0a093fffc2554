import Foundation
import Testing
import WebImage
import WebImageTesting

/// Files whose header claims a zero or absurd size but which otherwise parse (found by mutating corpus files; made by
/// `Tests/Fixtures/regressions/make_regressions.py`): every entry point refuses them with a typed error.
@Suite struct HeaderRegressionTests {
    static let names = [
        "jpeg_0x0.jpg", "jpeg_80x0.jpg", "png_0x0.png", "png_80x0.png", "png_0x16777056.png", "png_huge.png",
        "gif_0x0.gif", "gif_80x0.gif", "webp_vp8x_1x16777216.webp", "webp_vp8x_16777216x16777216.webp",
        "webp_vp8_0x0.webp",
    ]
    private let refusals: Set<WebImageError.Code> = [.corruptData, .tooLarge, .truncatedData, .unsupportedFormat]

    @Test(arguments: names)
    func everyEntryPointRefusesTheFile(name: String) throws {
        let data = try Fixtures.data("regressions/\(name)")
        let coders = ImageCoders.default
        let targets: [PixelSize?] = [nil, PixelSize(width: 100, height: 100), PixelSize(width: 1, height: 1)]
        for target in targets {
            #expect { try coders.decode(data, options: DecodingOptions(targetSize: target)) } throws: {
                refusals.contains(($0 as? WebImageError)?.code ?? .cancelled)
            }
        }
        // The header-only info reports a huge but positive size as it is; an empty one is refused.
        do {
            let info = try coders.info(of: data)
            #expect(info.width > 0 && info.height > 0)
        } catch {
            #expect(refusals.contains(error.code))
        }
        _ = try? coders.decodePartial(data, options: .default)
    }

    @Test(arguments: names)
    func theManagerRefusesTheFileWithAResize(name: String) async throws {
        let url = Fixtures.directory.appendingPathComponent("regressions/\(name)")
        let manager = ImageManager(
            configuration: .init(
                loader: ImageLoaders([FileImageLoader()]),
                cache: ImageCache(
                    disk: DiskCache(
                        directory: FileManager.default.temporaryDirectory
                            .appendingPathComponent("regressions-\(UUID().uuidString)")))))
        let request = ImageRequest(
            url: url, transformer: Resize(to: PixelSize(width: 100, height: 100)),
            thumbnailSize: PixelSize(width: 50, height: 50), cachePolicy: ImageCachePolicy(store: .none))
        await #expect { try await manager.image(for: request) } throws: {
            refusals.contains(($0 as? WebImageError)?.code ?? .cancelled)
        }
        await manager.shutdown()
    }

    /// A progressive JPEG keeps the whole image's coefficients in memory even for a thumbnail: a 141 KB file of
    /// 6000x6000 needs 72 MB. The limit on decoded bytes covers them, not only the scaled output.
    @Test func progressiveJPEGCoefficientsCountAgainstTheLimits() throws {
        let data = try Fixtures.data("regressions/progressive_6000.jpg")
        let thumbnail = PixelSize(width: 100, height: 100)
        let image = try ImageCoders.default.decode(data, options: DecodingOptions(targetSize: thumbnail))
        #expect(image.width >= 100 && image.width <= 1000)
        let strict = DecodingLimits(maxTotalBytes: 50 << 20)
        #expect {
            try ImageCoders.default.decode(data, options: DecodingOptions(targetSize: thumbnail, limits: strict))
        } throws: { ($0 as? WebImageError)?.code == .tooLarge }
    }
}
