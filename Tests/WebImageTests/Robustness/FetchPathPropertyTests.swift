import Foundation
import Testing
import WebImage

/// The whole fetch path (data URL → manager → shrink-on-load decode → transform) over random images and random,
/// often hostile, transforms: each request returns an image of the size a full decode plus the same transform gives,
/// or a typed error that the full decode plus transform also gives. Seeded: see ``SeededGenerator``.
@Suite struct FetchPathPropertyTests {
    private static let formats: [ImageFormat] = [.png, .jpeg, .webp]

    private func randomImage(using random: inout SeededGenerator) throws -> Data {
        let (w, h) = (random.side(upTo: 300), random.side(upTo: 300))
        let pixels = PixelBuffer(width: w, height: h) { output in
            for index in output.indices { output[index] = UInt8(truncatingIfNeeded: index &* 31 &+ w) }
        }
        let image = Image(frames: [ImageFrame(pixels: pixels)], format: .png)
        let format = Self.formats.randomElement(using: &random)!
        return try ImageCoders.default.encode(image, as: format, options: EncodingOptions(quality: 90))
    }

    private func randomTransformer(using random: inout SeededGenerator) -> any ImageTransforming {
        let limits = TransformLimits(maxOutputPixels: 400_000)
        let size = PixelSize(width: random.hostileInt(ordinary: 1...400), height: random.hostileInt(ordinary: 1...400))
        let resize = Resize(
            to: size, mode: ResizeMode.all.randomElement(using: &random)!,
            gravity: Gravity.all.randomElement(using: &random)!,
            allowsUpscaling: .random(using: &random), limits: limits)
        guard Bool.random(using: &random) else { return resize }
        return TransformerPipeline([
            resize, Rotate(degrees: random.hostileDouble(ordinary: 0...360), limits: limits),
            Blur(radius: random.hostileDouble(ordinary: 0...3)),
        ])
    }

    /// A manager that loads `data:` URLs, with its disk tier in a fresh temporary directory.
    private static func dataURLManager() -> ImageManager {
        ImageManager(
            configuration: .init(
                loader: ImageLoaders([DataURLImageLoader()]),
                cache: ImageCache(
                    disk: DiskCache(
                        directory: FileManager.default.temporaryDirectory
                            .appendingPathComponent("fetch-path-\(UUID().uuidString)")))))
    }

    @Test func everyRequestKeepsItsPromiseOrFailsTyped() async throws {
        let manager = Self.dataURLManager()
        var random = SeededGenerator(seed: SeededGenerator.seed &+ 10)
        for _ in 0..<SeededGenerator.cases(default: 60) {
            let data = try randomImage(using: &random)
            let transformer = randomTransformer(using: &random)
            let url = try #require(URL(string: "data:application/octet-stream;base64," + data.base64EncodedString()))
            let request = ImageRequest(
                url: url, options: [.retryFailed], transformer: transformer,
                cachePolicy: ImageCachePolicy(query: .none, store: .none))
            let direct = Result { () throws(WebImageError) -> PixelSize in
                try transformer.transform(try ImageCoders.default.decode(data, options: .default)).pixels.size
            }
            let outcome: Result<ImageResult, WebImageError>
            do {
                outcome = .success(
                    try await manager.image(for: request))
            } catch {
                outcome = .failure(error)
            }
            switch outcome {
            case .success(let result):
                #expect(result.image?.pixels.size == (try? direct.get()), "\(transformer.key)")
            case .failure(let error):
                let allowed: Set<WebImageError.Code> = [.invalidArgument, .tooLarge]
                #expect(allowed.contains(error.code), "\(transformer.key): \(error)")
                #expect((try? direct.get()) == nil, "\(transformer.key) fails only through the manager: \(error)")
            }
        }
        await manager.shutdown()
    }

    /// A JPEG of 299x131 fit into 37x17 decodes at 1/8 scale as 38x17; planned on that, the result would be 37x17
    /// instead of the full decode's 37x16. Resizes plan on the source's size, so both paths agree.
    @Test(arguments: [ResizeMode.contain, .cover, .fill])
    func shrinkOnLoadGivesTheFullDecodeSize(mode: ResizeMode) async throws {
        let pixels = PixelBuffer(width: 299, height: 131) { output in
            for index in output.indices { output[index] = UInt8(truncatingIfNeeded: index &* 7) }
        }
        let jpeg = try ImageCoders.default.encode(Image(pixels: pixels), as: .jpeg, options: EncodingOptions())
        let manager = Self.dataURLManager()
        let url = try #require(URL(string: "data:image/jpeg;base64," + jpeg.base64EncodedString()))
        for transformer: any ImageTransforming in [
            Resize(to: PixelSize(width: 37, height: 17), mode: mode),
            TransformerPipeline([Resize(to: PixelSize(width: 37, height: 17), mode: mode), Rotate(degrees: 90)]),
        ] {
            let request = ImageRequest(url: url, transformer: transformer, cachePolicy: ImageCachePolicy(store: .none))
            let result = try await manager.image(for: request)
            let full = try transformer.transform(try ImageCoders.default.decode(jpeg, options: .default))
            #expect(result.image?.size == full.size, "\(transformer.key)")
            #expect(result.image.map { $0.size.width * $0.size.height } ?? 0 > 0)
        }
        await manager.shutdown()
    }
}
