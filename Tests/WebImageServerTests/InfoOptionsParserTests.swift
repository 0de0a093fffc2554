import Foundation
import Testing

@testable import WebImageServer

/// The info options: names, short names, arguments and defaults as imgproxy Pro documents them, and the URL parser.
@Suite struct InfoOptionsParserTests {
    let parser = InfoURLParser(signer: nil, configuration: InfoConfiguration())

    func parse(_ options: String, source: String = "plain/http://x/a.png") throws -> InfoURLRequest {
        try parser.parse("/_/" + (options.isEmpty ? "" : options + "/") + source, now: 1000)
    }

    @Test func defaults() throws {
        let options = try parse("").options
        #expect(options.size && options.format && options.dimensions && options.exif && options.xmp)
        #expect(!options.exifCanonicalNames && !options.colorspace && !options.alpha && !options.average)
        #expect(options.averageIgnoresTransparent && options.paletteColors == 0 && options.blurHashX == 0)
        #expect(!options.decodesPixels)
    }

    @Test func namesAndArguments() throws {
        let long = try parse(
            "size:0/format:0/dimensions:f/exif:1:1/xmp:0/colorspace:1/bands:t/sample_format:true/pages_number:1"
                + "/alpha:1:1/palette:16/average:1:0/dominant_colors:1:1/blurhash:4:3/thumb_hash:1"
                + "/perceptual_hash:1/calc_hashsums:md5:sha512:md5/cachebuster:x/expires:2000"
        ).options
        let short = try parse(
            "s:0/f:0/d:f/exif:1:1/xmp:0/cs:1/b:t/sf:true/pn:1/a:1:1/p:16/avg:1:0/dc:1:1/bh:4:3/th:1/ph:1"
                + "/chs:md5:sha512:md5/cb:x/exp:2000"
        ).options
        #expect(long == short)
        #expect(!long.size && !long.format && !long.dimensions && long.exifCanonicalNames && !long.xmp)
        #expect(long.colorspace && long.bands && long.sampleFormat && long.pagesNumber)
        #expect(long.alpha && long.checksTransparency && long.paletteColors == 16)
        #expect(long.average && !long.averageIgnoresTransparent && long.dominantColors && long.buildsMissingColors)
        #expect(long.blurHashX == 4 && long.blurHashY == 3 && long.thumbHash && long.perceptualHash)
        #expect(long.hashsums == ["md5", "sha512"] && long.cacheBuster == "x" && long.expires == 2000)
        #expect(try parse("phash:1").options.perceptualHash)
        #expect(try parse("avg:1").options.averageIgnoresTransparent)
    }

    @Test(arguments: [
        "nope:1", "bh:10:1", "bh:1:-1", "bh:1", "bh:1:2:3", "p:1", "p:257", "p:-2", "p:x", "chs:crc32",
        "exp:999", "size:1:2", "exif:1:1:1", "pr:none", "palette:99999999999999999999",
    ])
    func refused(_ options: String) {
        #expect(throws: ImageServerError.self) { try parse(options) }
    }

    @Test func securityOptionsNeedPermission() throws {
        #expect(throws: ImageServerError(status: 403, "security processing options are not allowed")) {
            try parse("msr:2")
        }
        var configuration = InfoConfiguration()
        configuration.allowsSecurityOptions = true
        let allowed = try InfoURLParser(signer: nil, configuration: configuration)
            .parse("/_/msr:2.5/msfs:100/plain/http://x/a.png", now: 0).options
        #expect(allowed.maxSourceResolution == 2_500_000 && allowed.maxSourceFileSize == 100)
    }

    @Test func sourcesPlainAndBase64() throws {
        #expect(try parse("avg:1").source == "http://x/a.png")
        let encoded = Data("http://x/b.png".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        #expect(try parse("avg:1", source: encoded).source == "http://x/b.png")
    }

    @Test func presetsAllowedOptionsAndOnlyPresets() throws {
        var configuration = InfoConfiguration()
        configuration.presets = try InfoConfiguration.presets(definitions: ["default=xmp:0", "c=avg:1/dc:1"])
        configuration.allowedOptions = ["pr", "bh"]
        let parser = InfoURLParser(signer: nil, configuration: configuration)
        let options = try parser.parse("/_/pr:c/bh:1:1/plain/http://x/a.png", now: 0).options
        #expect(!options.xmp && options.average && options.dominantColors && options.usedPresets == ["default", "c"])
        #expect(throws: ImageServerError.self) { try parser.parse("/_/avg:1/plain/http://x/a.png", now: 0) }
        configuration.onlyPresets = true
        let only = try InfoURLParser(signer: nil, configuration: configuration)
            .parse("/_/c/plain/http://x/a.png", now: 0).options
        #expect(only.average)
    }

    @Test func signatureChecked() throws {
        let signer = try #require(URLSigner(hexKey: "736563726574", hexSalt: "68656c6c6f"))
        let parser = InfoURLParser(signer: signer, configuration: InfoConfiguration())
        let path = "/avg:1/plain/http://x/a.png"
        #expect(try parser.parse("/" + signer.signature(for: path) + path, now: 0).options.average)
        #expect(throws: ImageServerError.self) { try parser.parse("/bad" + path, now: 0) }
    }

    @Test func exifAndXMPFields() {
        // A big-endian TIFF: IFD0 with Make (ASCII) and an EXIF pointer to FNumber (RATIONAL).
        var tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 2]
        tiff += [0x01, 0x0F, 0, 2, 0, 0, 0, 4] + Array("ABC\0".utf8)
        tiff += [0x87, 0x69, 0, 4, 0, 0, 0, 1, 0, 0, 0, 38, 0, 0, 0, 0]
        tiff += [0, 1, 0x82, 0x9D, 0, 5, 0, 0, 0, 1, 0, 0, 0, 56, 0, 0, 0, 0]
        tiff += [0, 0, 0, 16, 0, 0, 0, 1]
        let titles = EXIFFields.fields(Data(tiff), canonicalNames: false)
        #expect(titles.map(\.0) == ["Manufacturer", "F-Number"] && titles.map(\.1) == ["ABC", "16/1"])
        #expect(EXIFFields.fields(Data(tiff), canonicalNames: true).map(\.0) == ["Make", "FNumber"])
        #expect(EXIFFields.fields(Data(tiff.prefix(20)), canonicalNames: true).count <= 1)
        let xmp = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description rdf:about="" dc:format="image/jpeg"
             photoshop:DateCreated="2016-09-11"><dc:creator><rdf:Seq><rdf:li>Peter &amp; Mary</rdf:li></rdf:Seq>
            </dc:creator><aux:Lens>16-35 mm</aux:Lens></rdf:Description></rdf:RDF></x:xmpmeta>
            """
        let groups = XMPFields.fields(Data(xmp.utf8))
        let text = JSONValue.object(groups.map { ($0.0, .object($0.1)) }).text
        #expect(text.contains(#""dc":{"creator":["Peter & Mary"],"format":"image/jpeg"}"#))
        #expect(text.contains(#""photoshop":{"DateCreated":"2016-09-11"}"#))
        #expect(text.contains(#""aux":{"Lens":"16-35 mm"}"#))
        #expect(!text.contains("rdf") && !text.contains("xmlns"))
    }

    /// Colour space, bands, sample format and alpha from PNG and JPEG headers.
    @Test func sourceTraits() {
        func describe(_ traits: SourceTraits) -> String {
            "\(traits.colorspace) \(traits.bands) \(traits.sampleFormat) \(traits.hasAlpha)"
        }
        func png(type: UInt8, depth: UInt8, chunks: [UInt8] = []) -> Data {
            let ihdr: [UInt8] = [0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 1, 0, 0, 0, 1, depth, type, 0, 0, 0]
            return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + ihdr + [0, 0, 0, 0] + chunks)
        }
        let grey16 = SourceTraits(png(type: 0, depth: 16), hasAlpha: true)
        #expect(describe(grey16) == "grey16 1 ushort false")
        let trns: [UInt8] = [0, 0, 0, 2] + Array("tRNS".utf8) + [0, 0, 0, 0, 0, 0]
        let palette = SourceTraits(png(type: 3, depth: 8, chunks: trns), hasAlpha: false)
        #expect(describe(palette) == "srgb 4 uchar true")
        #expect(SourceTraits(png(type: 2, depth: 8), hasAlpha: true).bands == 3)
        // A JPEG whose frame header (SOF0) has four components: CMYK, four bands, no alpha.
        let sof: [UInt8] = [0xFF, 0xC0, 0, 14, 8, 0, 1, 0, 1, 4, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0, 4, 0x11, 0]
        let cmyk = SourceTraits(Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0] + sof), hasAlpha: true)
        #expect(describe(cmyk) == "cmyk 4 uchar false")
        let grey = SourceTraits(Data([0xFF, 0xD8] + sof.prefix(9) + [1]), hasAlpha: false)
        #expect(grey.colorspace == "b-w" && grey.bands == 1)
        #expect(SourceTraits(Data("RIFF".utf8), hasAlpha: true).bands == 4)
    }
}
