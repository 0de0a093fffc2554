import Foundation
import Testing
import WebImage
import WebImageTesting

/// One entry of `Tests/Fixtures/formats/manifest.json`: the AVIF, HEIC and ICC colour fixtures.
struct FormatsFixture: Decodable, Sendable, CustomTestStringConvertible {
    let file: String
    let format: String
    let tolerance: String
    let frames: Int
    let reference: String?
    let width: Int
    let height: Int

    var testDescription: String { file }

    /// Allowed (mean, max) premultiplied difference from the reference.
    var allowed: (mean: Double, max: Int) {
        switch tolerance {
        case "lossy": (1.5, 48)
        case "upsampling": (1.5, 128)
        case "icc": (1.0, 12)
        case "icc-cmyk": (1.0, 24)
        default: (0.5, 2)
        }
    }

    var url: URL { Self.directory.appendingPathComponent(file) }

    func data() throws -> Data { try Data(contentsOf: url) }

    static let directory = Fixtures.directory.appendingPathComponent("formats", isDirectory: true)

    static let all: [FormatsFixture] = {
        struct Manifest: Decodable { let entries: [FormatsFixture] }
        let url = directory.appendingPathComponent("manifest.json")
        guard let data = try? Data(contentsOf: url) else { return [] }
        return (try? JSONDecoder().decode(Manifest.self, from: data).entries) ?? []
    }()

    /// The bytes of `images/NAME`.
    static func image(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent("images").appendingPathComponent(name))
    }

    /// The reference decode of `images/NAME`.
    static func reference(_ name: String) throws -> PixelBuffer {
        try ReferenceImage.load(directory.appendingPathComponent("expected").appendingPathComponent(name + ".png"))
    }
}

/// Every fixture decodes to its size and frame count, within tolerance of its reference.
@Suite struct FormatsConformanceTests {
    @Test func manifestIsPresent() {
        #expect(FormatsFixture.all.count >= 22)
    }

    @Test(arguments: FormatsFixture.all)
    func fixtureMatchesReference(_ fixture: FormatsFixture) throws {
        let data = try fixture.data()
        #expect(ImageFormat.sniff(data).name == fixture.format)
        let image = try ImageCoders.default.decode(data, options: .default)
        #expect(image.size == PixelSize(width: fixture.width, height: fixture.height))
        #expect(image.frames.count == fixture.frames)
        #expect(image.colorProfile == nil)
        guard let reference = fixture.reference else { return }
        let expected = try ReferenceImage.load(FormatsFixture.directory.appendingPathComponent(reference))
        try #require(expected.size == image.size)
        let difference = ReferenceImage.difference(image.pixels, expected)
        #expect(difference.mean <= fixture.allowed.mean, "mean difference \(difference.mean)")
        #expect(difference.max <= fixture.allowed.max, "max difference \(difference.max)")
    }

    /// Bytes cut short or flipped are refused with a ``WebImageError`` or decode to something; never a crash.
    @Test(arguments: FormatsFixture.all)
    func damagedFixtureNeverCrashes(_ fixture: FormatsFixture) throws {
        let data = try fixture.data()
        var generator = MutationRandom(seed: UInt64(data.count))
        for cut in [0, 1, 12, 40, data.count / 3, data.count / 2] where cut < data.count {
            let truncated = data.prefix(cut)
            #expect(throws: WebImageError.self, "cut at \(cut)") {
                _ = try ImageCoders.default.decode(truncated, options: .default)
            }
        }
        // Cut near the end, some formats lose only trailing chunks that decoders may do without (PNG's IEND).
        for cut in [data.count - 16, data.count - 1] where cut > 0 {
            _ = try? ImageCoders.default.decode(data.prefix(cut), options: .default)
        }
        for _ in 0..<40 {
            var damaged = data
            for _ in 0..<4 {
                let index = Int(generator.next() % UInt64(damaged.count))
                damaged[index] = UInt8(truncatingIfNeeded: generator.next())
            }
            _ = try? ImageCoders.default.decode(damaged, options: .default)
            _ = try? ImageCoders.default.info(of: damaged)
        }
    }
}

/// A small deterministic random generator, so damaged-input tests replay the same bytes.
struct MutationRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

extension Image {
    /// A `width`×`height` gradient whose every pixel differs from its neighbours, with a gradient of alpha when
    /// `alpha`: what the coders' round trips encode and compare.
    static func gradient(width: Int, height: Int, alpha: Bool) -> Image {
        let pixels = PixelBuffer(width: width, height: height) { output in
            for y in 0..<height {
                for x in 0..<width {
                    let index = (y * width + x) * 4
                    output[index] = UInt8(x * 255 / (width - 1))
                    output[index + 1] = UInt8(y * 255 / (height - 1))
                    output[index + 2] = UInt8((x * 7 + y * 3) % 256)
                    output[index + 3] = alpha ? UInt8((x + y) * 255 / (width + height - 2)) : 255
                }
            }
        }
        return Image(pixels: pixels)
    }
}
