import Foundation
import Hummingbird
import Testing
import WebImage
import WebImageTesting

@testable import WebImageServer

/// imgproxy's client hints (`IMGPROXY_ENABLE_CLIENT_HINTS`): the headers read as its `clientfeatures.Detector` reads
/// them (its `detector_test.go` cases), the defaults they give before the URL's options, the result key and `Vary`.
@Suite("Server: client hints")
struct ClientHintsTests {
    /// imgproxy's detector tests: which header wins, and which values are skipped.
    @Test(arguments: [
        (["Sec-CH-DPR": "2"], 2.0, 0), (["DPR": "1.5"], 1.5, 0), (["Sec-CH-DPR": "3", "DPR": "2"], 3.0, 0),
        (["Sec-CH-DPR": "0", "DPR": "2"], 2.0, 0), (["Sec-CH-DPR": "9"], 0.0, 0), (["DPR": "8"], 8.0, 0),
        (["DPR": "-1"], 0.0, 0), (["DPR": "abc"], 0.0, 0), (["DPR": "0x1p1"], 2.0, 0),
        (["Sec-CH-Width": "300"], 0.0, 300), (["Width": "200"], 0.0, 200),
        (["Sec-CH-Width": "0", "Width": "100"], 0.0, 100),
        (["Width": "1.5"], 0.0, 0), (["Width": "-5"], 0.0, 0), (["Width": "+7"], 0.0, 7),
        (["Width": "99999999999"], 0.0, 1 << 30), (["Width": "99999999999999999999"], 0.0, 0), ([:], 0.0, 0),
    ])
    func headersAreReadAsImgproxysDetectorReadsThem(headers: [String: String], dpr: Double, width: Int) {
        let hints = ClientHints(
            secCHDPR: headers["Sec-CH-DPR"], dpr: headers["DPR"], secCHWidth: headers["Sec-CH-Width"],
            width: headers["Width"])
        #expect(hints.dpr == dpr && hints.width == width, "\(headers)")
    }

    /// The hints are defaults: the width in CSS pixels (the hint divided by the DPR, rounded), which the URL's own
    /// `width` and `dpr` override.
    @Test func theHintsAreDefaultsTheURLOverrides() throws {
        let parser = ImageURLParser(signer: nil)
        let source = "/plain/http://e.example/a.png"
        let hints = ClientHints(secCHDPR: "3", dpr: nil, secCHWidth: "1000", width: nil)
        let hinted = try parser.parse("/x" + source, now: 0, hints: hints).options
        #expect(hinted.dpr == 3 && hinted.width == 333)
        let own = try parser.parse("/x/w:50/dpr:1" + source, now: 0, hints: hints).options
        #expect(own.dpr == 1 && own.width == 50)
        let plain = try parser.parse("/x" + source, now: 0).options
        #expect(plain.dpr == 1 && plain.width == 0)
        #expect(hinted.cacheIdentity != plain.cacheIdentity, "two DPRs never share a result")
        let onlyWidth = try parser.parse(
            "/x" + source, now: 0,
            hints: ClientHints(
                secCHDPR: nil, dpr: nil, secCHWidth: nil, width: "640")
        ).options
        #expect(onlyWidth.dpr == 1 && onlyWidth.width == 640)
    }

    /// Any header text: never a trap, a DPR in (0, 8] or none, a width in 1...2^30 or none.
    @Test func randomHeadersGiveBoundedHints() {
        var generator = SplitMix(seed: 0xC11E)
        let pieces = [
            "", "0", "1", "2.5", "8", "8.0000001", "-", "+", "e", "9", "x", "0x", "p", ".", "inf", "nan", " ",
        ]
        func text() -> String? {
            guard generator.next() % 5 != 0 else { return nil }
            return (0..<Int(generator.next() % 5)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }
                .joined()
        }
        for _ in 0..<20_000 {
            let hints = ClientHints(secCHDPR: text(), dpr: text(), secCHWidth: text(), width: text())
            #expect(hints.dpr == 0 || (hints.dpr > 0 && hints.dpr <= 8))
            #expect(hints.width == 0 || (1...(1 << 30)).contains(hints.width))
            var options = ProcessingOptions()
            hints.apply(to: &options)
            #expect(options.width >= 0 && options.width <= 1 << 30 && options.dpr.isFinite)
        }
    }

    /// A live server with client hints: the DPR and width hints size the result, each hint gets its own result (also
    /// on the repeated-path shortcut), `Vary` names the four headers after `Accept`; without the setting the headers
    /// change nothing and `Vary` stays as it was.
    @Test func aServerWithClientHintsSizesResultsByThem() async throws {
        try await ServerHarness.run(configure: {
            $0.http.enablesClientHints = true
            $0.autoWebP = true
        }) { harness in
            let url = harness.url("w:50", "/geometry.png")
            for _ in 0..<2 {
                let double = try await harness.get(url, headers: [ImageResponder.secCHDPR: "2"])
                #expect(try ServerHarness.image(double).width == 100)
                #expect(double.headers[.vary] == "Accept, Sec-CH-DPR, DPR, Sec-CH-Width, Width")
                let single = try await harness.get(url, headers: [ImageResponder.dprHeader: "1"])
                #expect(try ServerHarness.image(single).width == 50)
                let plain = try await harness.get(url)
                #expect(try ServerHarness.image(plain).width == 50)
            }
            let wide = try await harness.get(
                harness.url("", "/geometry.png"),
                headers: [ImageResponder.widthHeader: "120", ImageResponder.dprHeader: "2"])
            #expect(try ServerHarness.image(wide).width == 120, "60 CSS pixels at a DPR of 2")
        }
        try await ServerHarness.run { harness in
            let hinted = try await harness.get(
                harness.url("w:50", "/geometry.png"), headers: [ImageResponder.secCHDPR: "2"])
            #expect(try ServerHarness.image(hinted).width == 50)
            #expect(hinted.headers[.vary] == nil)
        }
    }
}
