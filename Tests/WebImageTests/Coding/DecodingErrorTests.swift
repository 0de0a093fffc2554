import Foundation
import Testing
import WebImage

/// Bad input gets a typed error with a reason, never a crash.
@Suite struct DecodingErrorTests {
    private func decodeError(_ data: Data, options: DecodingOptions = .default) -> WebImageError? {
        do {
            _ = try ImageCoders.default.decode(data, options: options)
            return nil
        } catch {
            return error
        }
    }

    @Test func emptyDataIsTruncated() {
        #expect(decodeError(Data())?.code == .truncatedData)
    }

    @Test func randomBytesAreUnsupported() throws {
        #expect(decodeError(try corpusImage("gen_random.bin"))?.code == .unsupportedFormat)
    }

    @Test func htmlErrorPageIsNotAnImage() throws {
        let error = decodeError(try corpusImage("gen_text.html"))
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message.contains("not an image") == true)
    }

    /// A format the registry recognises without a coder for it says so: SVG, with the SVG coder left out.
    @Test func recognisedButUnsupportedFormatsSaySo() {
        let coders = ImageCoders(ImageCoders.default.coders.filter { !$0.canDecode(.svg) })
        do {
            _ = try coders.decode(Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), options: .default)
            Issue.record("an SVG decoded without an SVG coder")
        } catch {
            #expect(error.code == .unsupportedFormat)
            #expect(error.message.contains("svg"))
        }
    }

    @Test func truncatedJPEGFailsAFullDecode() throws {
        let jpeg = try corpusImage("gen_baseline_420.jpg")
        #expect(decodeError(jpeg.prefix(jpeg.count / 2))?.code == .truncatedData)
    }

    @Test func jpegCutInsideItsHeaderIsAnError() throws {
        let jpeg = try corpusImage("gen_baseline_420.jpg")
        let code = decodeError(jpeg.prefix(20))?.code
        #expect(code == .truncatedData || code == .corruptData)
    }

    @Test func truncatedPNGIsTruncated() throws {
        let png = try corpusImage("pngsuite_basn6a08.png")
        #expect(decodeError(png.prefix(png.count - 30))?.code == .truncatedData)
    }

    @Test func pngWithBadChunkChecksumIsCorrupt() throws {
        var png = try corpusImage("pngsuite_basn2c08.png")
        png[png.count - 20] ^= 0xFF
        #expect(decodeError(png)?.code == .corruptData)
    }

    @Test(arguments: [
        "pngsuite_xc9n2c08.png", "pngsuite_xcsn0g01.png", "pngsuite_xd3n2c08.png", "pngsuite_xdtn0g01.png",
    ])
    func brokenPngSuiteFilesAreCorrupt(name: String) throws {
        let code = decodeError(try corpusImage(name))?.code
        #expect(code == .corruptData || code == .truncatedData)
    }

    @Test(arguments: ["bomb_50000x50000.png", "bomb_65000x65000.jpg"])
    func decompressionBombsAreRefusedByThePixelLimit(name: String) throws {
        let error = decodeError(try corpusImage(name))
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("pixels") == true)
    }

    @Test(arguments: ["gen_baseline_420.jpg", "pngsuite_basn6a08.png", "gen_still.gif", "gen_anim.webp"])
    func pixelLimitAppliesToEveryFormat(name: String) throws {
        let limits = DecodingLimits(maxPixelsPerFrame: 1_000)
        #expect(decodeError(try corpusImage(name), options: DecodingOptions(limits: limits))?.code == .tooLarge)
    }

    @Test(arguments: ["gen_anim.gif", "gen_anim.png", "gen_anim.webp"])
    func frameLimitAppliesToAnimations(name: String) throws {
        let limits = DecodingLimits(maxFrames: 2)
        #expect(decodeError(try corpusImage(name), options: DecodingOptions(limits: limits))?.code == .tooLarge)
    }

    @Test func totalByteLimitCountsEveryFrame() throws {
        let limits = DecodingLimits(maxTotalBytes: 96 * 64 * 4 * 3)
        let options = DecodingOptions(limits: limits)
        #expect(decodeError(try corpusImage("gen_anim.webp"), options: options)?.code == .tooLarge)
        let firstOnly = DecodingOptions(firstFrameOnly: true, limits: limits)
        #expect(decodeError(try corpusImage("gen_anim.webp"), options: firstOnly) == nil)
    }

    @Test func errorsCarryStableCodesAndTransience() {
        #expect(WebImageError(.badStatus, "", httpStatus: 503).isTransient)
        #expect(WebImageError(.badStatus, "", httpStatus: 429).isTransient)
        #expect(!WebImageError(.badStatus, "", httpStatus: 404).isTransient)
        #expect(!WebImageError(.corruptData, "").isTransient)
        #expect(WebImageError.Code.corruptData.number == 3)
    }
}
