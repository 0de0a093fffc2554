import Testing
import WebImage

@testable import WebImageServer

/// The rules of imgproxy's `prepare.go` and `calc_position.go` beyond the size tables: dpr, crop, gravity, extend.
@Suite("Server: geometry rules")
struct GeometryRuleTests {
    func geometry(_ path: String, source: (Int, Int) = (200, 100), limit: Int = 0) throws -> ResultGeometry {
        let options = try ImageURLParser(signer: nil).parse("/x/\(path)/plain/http://e.example/a.jpg", now: 0).options
        return GeometryCalculator.geometry(
            source: PixelSize(width: source.0, height: source.1), options: options, maxResultDimension: limit)
    }

    func size(_ path: String, source: (Int, Int) = (200, 100)) throws -> (Int, Int) {
        let result = try geometry(path, source: source).resultSize
        return (result.width, result.height)
    }

    @Test func dprMultipliesTheSizeButNeverEnlargesWithoutEnlarge() throws {
        #expect(try size("rs:fit:50:50/dpr:2") == (100, 50))
        #expect(try size("rs:fit:150:150/dpr:2") == (200, 100))
        #expect(try size("rs:fit:150:150/dpr:2/el:1") == (300, 150))
        #expect(try size("rs:fill:50:50/dpr:3") == (100, 100))
    }

    @Test func cropSizesAreNotScaledByDpr() throws {
        #expect(try size("c:100:50/dpr:2") == (100, 50))
        #expect(try size("c:100:50/dpr:2/el:1") == (200, 100))
        #expect(try geometry("c:0.5:0.5").crop == .rect(PixelRect(x: 50, y: 26, width: 100, height: 50)))
        #expect(try geometry("c:300:50").crop == .rect(PixelRect(x: 0, y: 26, width: 200, height: 50)))
        #expect(try geometry("c:0").crop == nil)
    }

    @Test func gravityOffsetsAreScaledByDprCropOffsetsAreNot() throws {
        let resultCrop = try geometry("rs:fill:100:100/g:we:10/dpr:2", source: (400, 200)).resultCrop
        #expect(resultCrop == .rect(PixelRect(x: 20, y: 0, width: 200, height: 200)))
        let crop = try geometry("c:100:100:we:10/dpr:2", source: (400, 200)).crop
        #expect(crop == .rect(PixelRect(x: 10, y: 50, width: 100, height: 100)))
        let fraction = try geometry("rs:fill:100:100/g:ea:0.1", source: (400, 200)).resultCrop
        #expect(fraction == .rect(PixelRect(x: 80, y: 0, width: 100, height: 100)))
    }

    @Test func focusPointAndSmartGravity() throws {
        let point = try geometry("rs:fill:100:100/g:fp:0.75:0.5", source: (400, 200)).resultCrop
        #expect(point == .rect(PixelRect(x: 100, y: 0, width: 100, height: 100)))
        #expect(
            try geometry("rs:fill:100:100/g:sm", source: (400, 200)).resultCrop
                == .smart(PixelSize(width: 100, height: 100)))
        #expect(try geometry("c:50:50:sm").crop == .smart(PixelSize(width: 50, height: 50)))
    }

    @Test func forceAndAuto() throws {
        #expect(try size("rs:force:50:80") == (50, 80))
        #expect(try size("rs:force:300:50") == (200, 33))
        #expect(try size("rs:force:300:50:1") == (300, 50))
        #expect(try size("rs:auto:50:50") == (50, 50))
        #expect(try size("rs:auto:50:100") == (50, 25))
        #expect(try size("rs:auto:100:50", source: (100, 200)) == (25, 50))
    }

    @Test func extendPlacesTheImageByGravity() throws {
        #expect(
            try geometry("rs:fit:300:300/ex:1:no").canvas == .init(size: .init(width: 300, height: 300), x: 50, y: 0))
        #expect(
            try geometry("rs:fit:300:300/ex:1").canvas == .init(size: .init(width: 300, height: 300), x: 50, y: 100))
        #expect(
            try geometry("rs:fit:300:300/ex:1:soea").canvas
                == .init(size: .init(width: 300, height: 300), x: 100, y: 200))
        #expect(
            try geometry("rs:fit:300:300/ex:1:we:10").canvas
                == .init(size: .init(width: 300, height: 300), x: 10, y: 100))
        #expect(try geometry("rs:fit:100:100/ex:1").canvas == .init(size: .init(width: 100, height: 100), x: 0, y: 26))
        #expect(try geometry("rs:fit:50:25/ex:1").canvas == nil)
    }

    @Test func hugeRequestsStayBoundedAndFinite() throws {
        let huge = try geometry("rs:fill:1073741824:1:1/dpr:1000000000", limit: 8192)
        #expect(huge.resultSize.width <= 8192 && huge.resultSize.height <= 8192)
        let unbounded = try geometry("rs:fit:1073741824:1073741824:1/dpr:1000000000")
        #expect(unbounded.scaledSize.width > 0 && unbounded.resultSize.height > 0)
        let tiny = try geometry("rs:fit:1:1", source: (100_000, 1))
        #expect(tiny.resultSize.width >= 1 && tiny.resultSize.height >= 1)
    }
}
