import Testing
import WebImage

@testable import WebImageServer

/// imgproxy's `processing_test.go` tables: a 200×100 source, (options) → result size.
@Suite("Server: geometry tables (imgproxy's processing tests)")
struct GeometryTableTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var type: ResizingType
        var width: Int
        var height: Int
        var enlarge = false
        var extend = false
        var limit = 0
        var rotate = 0
        var extendAspectRatio = false
        var padding = Padding()
        var dpr = 1.0
        var expected: (Int, Int)

        var testDescription: String {
            "\(type.rawValue):\(width)x\(height)\(enlarge ? " el" : "")\(extend ? " ex" : "")"
                + "\(limit > 0 ? " limit:\(limit)" : "")\(rotate != 0 ? " rot:\(rotate)" : "")"
                + "\(extendAspectRatio ? " exar" : "")\(padding.isEnabled ? " pd:\(padding)" : "")"
                + "\(dpr != 1 ? " dpr:\(dpr)" : "")"
        }

        func resultSize(source: PixelSize = PixelSize(width: 200, height: 100)) -> (Int, Int) {
            var o = ProcessingOptions()
            o.resizingType = type
            (o.width, o.height, o.enlarge, o.extend, o.rotate) = (width, height, enlarge, extend, rotate)
            (o.extendAspectRatio, o.padding, o.dpr) = (extendAspectRatio, padding, dpr)
            let upright = rotate % 180 == 0 ? source : PixelSize(width: source.height, height: source.width)
            let size = GeometryCalculator.geometry(source: upright, options: o, maxResultDimension: limit).resultSize
            return (size.width, size.height)
        }
    }

    static func table(
        _ type: ResizingType, enlarge: Bool = false, extend: Bool = false, _ rows: [(Int, Int, Int, Int)]
    ) -> [Case] {
        rows.map {
            Case(type: type, width: $0.0, height: $0.1, enlarge: enlarge, extend: extend, expected: ($0.2, $0.3))
        }
    }

    static let fit = table(
        .fit,
        [
            (50, 50, 50, 25), (50, 20, 40, 20), (20, 50, 20, 10), (300, 300, 200, 100), (300, 50, 100, 50),
            (100, 300, 100, 50), (0, 50, 100, 50), (50, 0, 50, 25), (0, 200, 200, 100), (300, 0, 200, 100),
        ])
    static let fitEnlarge = table(
        .fit, enlarge: true,
        [
            (50, 50, 50, 25), (50, 20, 40, 20), (20, 50, 20, 10), (300, 300, 300, 150), (300, 125, 250, 125),
            (250, 300, 250, 125), (0, 50, 100, 50), (50, 0, 50, 25), (0, 200, 400, 200), (300, 0, 300, 150),
        ])
    static let fitExtend = table(
        .fit, extend: true,
        [
            (50, 50, 50, 50), (50, 20, 50, 20), (20, 50, 20, 50), (300, 300, 300, 300), (300, 125, 300, 125),
            (250, 300, 250, 300), (0, 50, 100, 50), (50, 0, 50, 25), (0, 200, 200, 200), (300, 0, 300, 100),
        ])
    static let fill = table(
        .fill,
        [
            (50, 50, 50, 50), (50, 20, 50, 20), (20, 50, 20, 50), (300, 300, 200, 100), (300, 50, 200, 50),
            (100, 300, 100, 100), (0, 50, 100, 50), (50, 0, 50, 25), (0, 200, 200, 100), (300, 0, 200, 100),
        ])
    static let fillEnlarge = table(
        .fill, enlarge: true,
        [
            (50, 50, 50, 50), (50, 20, 50, 20), (20, 50, 20, 50), (300, 300, 300, 300), (300, 125, 300, 125),
            (250, 300, 250, 300), (0, 50, 100, 50), (50, 0, 50, 25), (0, 200, 400, 200), (300, 0, 300, 150),
        ])
    static let fillExtend = table(
        .fill, extend: true,
        [
            (50, 50, 50, 50), (50, 20, 50, 20), (20, 50, 20, 50), (300, 300, 300, 300), (300, 125, 300, 125),
            (250, 300, 250, 300), (300, 50, 300, 50), (100, 300, 100, 300), (0, 50, 100, 50), (50, 0, 50, 25),
            (0, 200, 200, 200), (300, 0, 300, 100),
        ])
    static let fillDown = table(
        .fillDown,
        [
            (50, 50, 50, 50), (50, 20, 50, 20), (20, 50, 20, 50), (300, 300, 100, 100), (300, 125, 200, 83),
            (250, 300, 83, 100), (0, 50, 100, 50), (50, 0, 50, 25), (0, 200, 200, 100), (300, 0, 200, 100),
        ])
    static let fillDownEnlarge = table(
        .fillDown, enlarge: true,
        [
            (50, 50, 50, 50), (50, 20, 50, 20), (20, 50, 20, 50), (300, 300, 300, 300), (300, 125, 300, 125),
            (250, 300, 250, 300), (0, 50, 100, 50), (50, 0, 50, 25), (0, 200, 400, 200), (300, 0, 300, 150),
        ])
    static let fillDownExtend = table(
        .fillDown, extend: true,
        [
            (50, 50, 50, 50), (50, 20, 50, 20), (20, 50, 20, 50), (300, 300, 300, 300), (300, 125, 300, 125),
            (250, 300, 250, 300), (300, 50, 300, 50), (100, 300, 100, 300), (0, 50, 100, 50), (50, 0, 50, 25),
            (0, 200, 200, 200), (300, 0, 300, 100),
        ])
    static let limits: [Case] = [
        Case(type: .fit, width: 100, height: 100, limit: 1000, expected: (100, 50)),
        Case(type: .fit, width: 100, height: 100, limit: 50, expected: (50, 25)),
        Case(type: .fit, width: 0, height: 0, limit: 50, expected: (50, 25)),
        Case(type: .fit, width: 0, height: 100, limit: 100, expected: (100, 50)),
        Case(type: .fit, width: 150, height: 0, limit: 50, expected: (50, 25)),
        Case(type: .fit, width: 1000, height: 1000, limit: 100, expected: (100, 50)),
        Case(type: .fit, width: 1000, height: 1000, enlarge: true, limit: 100, expected: (100, 50)),
        Case(type: .fit, width: 1000, height: 2000, extend: true, limit: 100, expected: (50, 100)),
        Case(type: .fit, width: 100, height: 150, limit: 100, rotate: 90, expected: (50, 100)),
        Case(type: .fit, width: 0, height: 0, limit: 100, rotate: 90, expected: (50, 100)),
        Case(type: .fill, width: 100, height: 100, limit: 1000, expected: (100, 100)),
        Case(type: .fill, width: 100, height: 100, limit: 50, expected: (50, 50)),
        Case(type: .fill, width: 1000, height: 50, limit: 50, expected: (50, 13)),
        Case(type: .fill, width: 100, height: 1000, limit: 50, expected: (50, 50)),
    ]
    /// The `max_result_dimension` rows with `extend_aspect_ratio` and `padding` (100:200:300:400).
    static let extendAspectRatioAndPaddingLimits: [Case] =
        [ResizingType.fit, .fill, .fillDown].flatMap { type in
            [
                Case(type: type, width: 1000, height: 2000, limit: 100, extendAspectRatio: true, expected: (50, 100)),
                Case(
                    type: type, width: 100, height: 100, limit: 200, padding: imgproxyPadding,
                    expected: type == .fit ? (200, 129) : (200, 144)),
            ]
        } + [
            Case(type: .fillDown, width: 1000, height: 1000, limit: 200, padding: imgproxyPadding, expected: (200, 144))
        ]
    static let imgproxyPadding = Padding(top: 100, right: 200, bottom: 300, left: 400)
    /// imgproxy's `TestExtendAspectRatio` (`extend_test.go`): 300×600 requested, no enlarging.
    static let extendAspectRatio: [Case] = [
        Case(type: .fit, width: 300, height: 600, extendAspectRatio: true, expected: (200, 400)),
        Case(type: .fit, width: 300, height: 600, extendAspectRatio: true, dpr: 0.5, expected: (150, 300)),
        Case(type: .fit, width: 300, height: 600, extendAspectRatio: true, dpr: 2, expected: (200, 400)),
    ]

    @Test(arguments: fit + fitEnlarge + fitExtend)
    func fitTable(_ row: Case) { #expect(row.resultSize() == row.expected) }

    @Test(arguments: fill + fillEnlarge + fillExtend)
    func fillTable(_ row: Case) { #expect(row.resultSize() == row.expected) }

    @Test(arguments: fillDown + fillDownEnlarge + fillDownExtend)
    func fillDownTable(_ row: Case) { #expect(row.resultSize() == row.expected) }

    @Test(arguments: limits + extendAspectRatioAndPaddingLimits)
    func resultDimensionLimitTable(_ row: Case) { #expect(row.resultSize() == row.expected) }

    @Test(arguments: extendAspectRatio)
    func extendAspectRatioTable(_ row: Case) { #expect(row.resultSize() == row.expected) }
}
