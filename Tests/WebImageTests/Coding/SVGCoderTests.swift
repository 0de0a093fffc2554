import Foundation
import Testing

@testable import WebImage

/// SVG through librsvg: the fixtures against rsvg-convert's renders, the intrinsic size, renders at a target size,
/// and the limits.
@Suite struct SVGCoderTests {
    /// The SVG entries of the formats manifest.
    static let fixtures = FormatsFixture.all.filter { $0.format == "svg" }

    @Test func everyVariantHasAFixture() {
        #expect(Self.fixtures.count == 8)
    }

    /// Each fixture renders to rsvg-convert's pixels, but for the last step of antialiasing.
    @Test(arguments: fixtures)
    func fixtureRendersToItsReference(_ fixture: FormatsFixture) throws {
        let image = try ImageCoders.default.decode(try fixture.data(), options: .default)
        let expected = try ReferenceImage.load(FormatsFixture.directory.appendingPathComponent(fixture.reference!))
        try #require(image.size == expected.size)
        let difference = ReferenceImage.difference(image.pixels, expected)
        #expect(difference.max <= 2, "max difference \(difference.max)")
        #expect(image.format == .svg)
        #expect(image.frames.count == 1)
    }

    @Test(arguments: fixtures)
    func infoIsTheIntrinsicSize(_ fixture: FormatsFixture) throws {
        let data = try fixture.data()
        #expect(ImageFormat.sniff(data) == .svg)
        let info = try ImageCoders.default.info(of: data)
        #expect(info == ImageInfo(format: .svg, width: fixture.width, height: fixture.height, hasAlpha: true))
    }

    /// A vector has no pixels to shrink: the render is the smallest size with the document's aspect ratio that covers
    /// the target, larger or smaller than the document.
    @Test(arguments: [
        (PixelSize(width: 400, height: 300), PixelSize(width: 400, height: 300)),
        (PixelSize(width: 100, height: 100), PixelSize(width: 133, height: 100)),
        (PixelSize(width: 8, height: 2), PixelSize(width: 8, height: 6)),
        (PixelSize(width: 40, height: 30), PixelSize(width: 40, height: 30)),
    ])
    func rendersAtTheTargetSize(target: PixelSize, expected: PixelSize) throws {
        let data = try FormatsFixture.image("svg_viewbox.svg")
        let image = try SVGCoder().decode(data, options: DecodingOptions(targetSize: target))
        #expect(image.size == expected)
        // The ellipse's centre is yellow and the corner the dark ground at any size.
        let centre = image.pixels[image.width / 2, image.height / 2]
        #expect(centre.red > 200 && centre.green > 150 && centre.blue < 80 && centre.alpha == 255)
        #expect(image.pixels[0, 0] == RGBA(red: 0x30, green: 0x30, blue: 0x30))
    }

    /// A document without a viewBox scales too: the whole drawing is in the larger render.
    @Test func aDocumentWithoutViewBoxScales() throws {
        let data = try FormatsFixture.image("svg_no_size.svg")
        let image = try SVGCoder().decode(
            data, options: DecodingOptions(targetSize: PixelSize(width: 300, height: 200)))
        #expect(image.size == PixelSize(width: 300, height: 200))
        for (x, y) in [(2, 2), (297, 2), (2, 197), (297, 197), (150, 100)] {
            #expect(image.pixels[x, y] == RGBA(red: 0x40, green: 0x60, blue: 0x80), "at \(x), \(y)")
        }
    }

    /// A document that says nothing of its size and draws nothing is 100x100, transparent.
    @Test func anEmptyDocumentIsTheFallbackSize() throws {
        let data = Data(#"<svg xmlns="http://www.w3.org/2000/svg"></svg>"#.utf8)
        #expect(try SVGCoder().info(of: data).uprightSize == PixelSize(width: 100, height: 100))
        let image = try SVGCoder().decode(data, options: .default)
        #expect(image.size == PixelSize(width: 100, height: 100) && !image.isOpaque)
    }

    /// Semi-transparent fills come out with straight (not premultiplied) alpha.
    @Test func alphaIsStraight() throws {
        let data = Data(
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4" fill="#ff8000" fill-opacity="0.5"/></svg>"##
                .utf8)
        let pixel = try SVGCoder().decode(data, options: .default).pixels[1, 1]
        #expect(pixel.red == 255 && (127...129).contains(pixel.green) && pixel.blue == 0)
        #expect((127...129).contains(pixel.alpha))
    }

    @Test func theRenderIsCheckedAgainstTheLimitsBeforeAllocating() throws {
        let huge = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="200000" height="200000"/>"#.utf8)
        #expect(try SVGCoder().info(of: huge).width == 200_000)
        #expect(errorCode { try SVGCoder().decode(huge, options: .default) } == .tooLarge)
        let small = try FormatsFixture.image("svg_viewbox.svg")
        let tight = DecodingOptions(
            targetSize: PixelSize(width: 4000, height: 3000), limits: .init(maxPixelsPerFrame: 1_000_000))
        #expect(errorCode { try SVGCoder().decode(small, options: tight) } == .tooLarge)
        let absurd = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="5e9" height="10"/>"#.utf8)
        #expect(errorCode { try SVGCoder().info(of: absurd) } == .tooLarge)
    }

    @Test func theBytesAndElementsAreBounded() throws {
        let rects = String(repeating: #"<rect width="1" height="1"/>"#, count: 20)
        let data = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4">\#(rects)</svg>"#.utf8)
        #expect(errorCode { try SVGCoder(maxElements: 10).decode(data, options: .default) } == .tooLarge)
        #expect(errorCode { try SVGCoder(maxBytes: 100).info(of: data) } == .tooLarge)
        #expect(try SVGCoder(maxElements: 21).decode(data, options: .default).width == 4)
    }

    /// A render past its deadline is abandoned with `timedOut`; a zero deadline never waits for a heavy render.
    @Test func aRenderPastItsDeadlineIsCutOff() throws {
        let blur = Data(
            """
            <svg xmlns="http://www.w3.org/2000/svg" width="3000" height="3000"><filter id="b">\
            <feGaussianBlur stdDeviation="300"/></filter><rect width="3000" height="3000" fill="red" filter="url(#b)"/>\
            </svg>
            """.utf8)
        #expect(errorCode { try SVGCoder(renderTimeout: .zero).decode(blur, options: .default) } == .timedOut)
    }

    @Test func brokenDocumentsAreTypedErrors() throws {
        let cases = [
            #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect"#,
            #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><g></svg>"#,
            #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">&undeclared;</svg>"#,
        ]
        for text in cases {
            #expect(throws: WebImageError.self, "\(text)") { try SVGCoder().decode(Data(text.utf8), options: .default) }
        }
    }

    /// Each call has its own librsvg handle: renders on many threads at once agree.
    @Test func concurrentRendersAgree() async throws {
        let data = try FormatsFixture.image("svg_gradient.svg")
        let expected = try SVGCoder().decode(data, options: .default).pixels
        try await withThrowingTaskGroup(of: PixelBuffer.self) { group in
            for _ in 0..<16 { group.addTask { try SVGCoder().decode(data, options: .default).pixels } }
            for try await pixels in group { #expect(pixels == expected) }
        }
    }
}

/// The code of the ``WebImageError`` that `body` throws; `nil` when it returns or throws another error.
func errorCode<T>(_ body: () throws -> T) -> WebImageError.Code? {
    do {
        _ = try body()
        return nil
    } catch let error as WebImageError {
        return error.code
    } catch {
        return nil
    }
}
