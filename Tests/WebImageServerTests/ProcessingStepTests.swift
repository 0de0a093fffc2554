import Testing
import WebImage

@testable import WebImageServer

/// The steps of ``ProcessingPipeline``, each run alone on a context made here.
@Suite("Server: processing steps")
struct ProcessingStepTests {
    /// A context for `pixels` with the options of `path` and the geometry planned from the pixels' size.
    static func context(
        _ pixels: PixelBuffer, _ path: String, format: ImageFormat = .png, limits: ServerLimits = ServerLimits()
    ) throws -> ProcessingContext {
        let options = try ImageURLParser(signer: nil).parse("/x/\(path)/plain/http://e.example/a.png", now: 0).options
        let planned = GeometryCalculator.geometry(
            source: pixels.size, options: options, maxResultDimension: limits.maxResultDimension)
        return ProcessingContext(
            image: Image(pixels: pixels), options: options, limits: limits, format: format, planned: planned,
            shrunkOnLoad: false, encoding: EncodingOptions())
    }

    @Test func theStepsRunInImgproxysOrder() {
        let names = ProcessingPipeline.steps.map { "\(type(of: $0))" }
        #expect(
            names == [
                "TrimStep", "PrepareStep", "ScaleOnLoadStep", "RotateAndFlipStep", "CropStep", "ScaleStep",
                "CropToResultStep",
                "FiltersStep",
                "ExtendStep", "ExtendAspectRatioStep", "PaddingStep", "FlattenStep", "WatermarkStep",
                "ColorSpaceOutStep",
                "StripMetadataStep",
            ])
    }

    @Test func prepareReplansFromThePixelsUnlessTheDecoderShrankThem() throws {
        var context = try Self.context(TestImages.geometry, "rs:fill:50:50")
        context.image = Image(pixels: PixelBuffer(width: 100, height: 100, filledWith: .white))
        try PrepareStep().apply(to: &context)
        #expect(context.geometry.sourceSize == PixelSize(width: 100, height: 100))
        #expect(context.geometry.scaledSize == PixelSize(width: 50, height: 50))
        let planned = try Self.context(TestImages.geometry, "rs:fill:50:50")
        var shrunk = ProcessingContext(
            image: Image(pixels: PixelBuffer(width: 100, height: 50, filledWith: .white)), options: planned.options,
            limits: planned.limits, format: .png, planned: planned.geometry, shrunkOnLoad: true,
            encoding: EncodingOptions())
        try PrepareStep().apply(to: &shrunk)
        #expect(shrunk.geometry == planned.geometry)
    }

    @Test func prepareRefusesWorkPastTheBudget() throws {
        var limits = ServerLimits()
        limits.maxResultDimension = 0
        var context = try Self.context(TestImages.geometry, "pd:1073741824", limits: limits)
        #expect(throws: ImageServerError.self) { try PrepareStep().apply(to: &context) }
    }

    @Test func theCropStepsCutWhatTheGeometrySays() throws {
        // geometry: 200×100, left half red, right half blue.
        var context = try Self.context(TestImages.geometry, "c:40:40:ea")
        try CropStep().apply(to: &context)
        #expect(context.image.size == PixelSize(width: 40, height: 40))
        #expect(context.image.pixels[20, 20] == RGBA(red: 0, green: 0, blue: 255))
        var fill = try Self.context(TestImages.geometry, "rs:fill:100:100/g:we")
        try ScaleStep().apply(to: &fill)
        #expect(fill.image.size == PixelSize(width: 200, height: 100))
        try CropToResultStep().apply(to: &fill)
        #expect(fill.image.size == PixelSize(width: 100, height: 100))
        #expect(fill.image.pixels[50, 50] == RGBA(red: 255, green: 0, blue: 0))
    }

    @Test func theCanvasStepsPlaceTheImage() throws {
        var context = try Self.context(TestImages.geometry, "pd:5:10/bg:00ff00")
        try ExtendStep().apply(to: &context)
        try ExtendAspectRatioStep().apply(to: &context)
        #expect(context.image.size == PixelSize(width: 200, height: 100))
        try PaddingStep().apply(to: &context)
        #expect(context.image.size == PixelSize(width: 220, height: 110))
        #expect(context.image.pixels[2, 2] == RGBA(red: 0, green: 255, blue: 0))
        #expect(context.image.pixels[15, 50] == RGBA(red: 255, green: 0, blue: 0))
    }

    @Test func flattenUsesTheBackgroundOrWhiteForJPEG() throws {
        var png = try Self.context(TestImages.alpha, "w:64")
        try FlattenStep().apply(to: &png)
        #expect(!png.image.isOpaque)
        var jpeg = try Self.context(TestImages.alpha, "w:64", format: .jpeg)
        try FlattenStep().apply(to: &jpeg)
        #expect(jpeg.image.isOpaque && jpeg.image.pixels[0, 0].red > 150)
        var background = try Self.context(TestImages.alpha, "bg:000")
        try FlattenStep().apply(to: &background)
        #expect(background.image.isOpaque && background.image.pixels[0, 0].red == 0)
    }

    @Test func theLastStepsDecideWhatTheEncoderWrites() throws {
        var kept = try Self.context(TestImages.geometry, "scp:0/sm:0", format: .webp)
        try ColorSpaceOutStep().apply(to: &kept)
        try StripMetadataStep().apply(to: &kept)
        #expect(kept.encoding.embedsColorProfile && kept.encoding.embedsMetadata)
        var gif = try Self.context(TestImages.geometry, "scp:0", format: .gif)
        try ColorSpaceOutStep().apply(to: &gif)
        try StripMetadataStep().apply(to: &gif)
        #expect(!gif.encoding.embedsColorProfile && !gif.encoding.embedsMetadata)
    }
}
