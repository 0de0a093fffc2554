import Testing
import WebImage

@testable import WebImageServer

@Suite("Server: processing options")
struct OptionsParserTests {
    func options(_ path: String, presets: [String] = [], now: Int = 1_000) throws -> ProcessingOptions {
        let parser = ImageURLParser(signer: nil, presets: try Presets(definitions: presets))
        return try parser.parse("/x/\(path)/plain/http://example.com/a.jpg", now: now).options
    }

    func status(_ path: String, presets: [String] = []) -> Int? {
        do {
            _ = try options(path, presets: presets)
            return nil
        } catch let error as ImageServerError {
            return error.status
        } catch {
            return -1
        }
    }

    @Test func resizeSetsTypeSizeEnlargeAndExtendWithGravity() throws {
        let o = try options("rs:fill-down:300:200:1:1:so:5:6")
        #expect(o.resizingType == .fillDown)
        #expect((o.width, o.height) == (300, 200))
        #expect(o.enlarge && o.extend)
        #expect(o.extendGravity == GravityOption(.south, x: 5, y: 6))
        let short = try options("resize:force:10")
        #expect(short.resizingType == .force && short.width == 10 && short.height == 0)
        #expect(try options("resizing_type:fill").resizingType == .fill)
        #expect(try options("rt:auto").resizingType == .auto)
    }

    @Test func sizeSkipsEmptyArguments() throws {
        let o = try options("w:50/h:60/s::70")
        #expect((o.width, o.height) == (50, 70))
        #expect(try options("size:1:2:t").enlarge)
    }

    @Test(arguments: [
        ("width:12", "width", 12), ("w:0", "width", 0), ("height:7", "height", 7), ("h:+8", "height", 8),
        ("quality:90", "quality", 90), ("q:1", "quality", 1), ("rotate:90", "rotate", 90),
        ("rot:-90", "rotate", 270), ("rot:450", "rotate", 90),
    ])
    func integerOptions(path: String, field: String, value: Int) throws {
        let o = try options(path)
        let fields = ["width": o.width, "height": o.height, "quality": o.quality, "rotate": o.rotate]
        #expect(fields[field] == value)
    }

    @Test(arguments: [
        ("dpr:2", "dpr", 2.0), ("blur:1.5", "blur", 1.5), ("bl:0", "blur", 0.0), ("sharpen:0.3", "sharpen", 0.3),
        ("sh:2", "sharpen", 2.0), ("c:0.5", "cropWidth", 0.5), ("crop:10:20", "cropHeight", 20.0),
    ])
    func numberOptions(path: String, field: String, value: Double) throws {
        let o = try options(path)
        let fields = [
            "dpr": o.dpr, "blur": o.blur, "sharpen": o.sharpen, "cropWidth": o.cropWidth, "cropHeight": o.cropHeight,
        ]
        #expect(fields[field] == value)
    }

    @Test(arguments: [
        ("el:1", "enlarge", true), ("enlarge:t", "enlarge", true), ("el:True", "enlarge", true),
        ("el:yes", "enlarge", false), ("el:2", "enlarge", false), ("ex:1", "extend", true),
        ("extend:0", "extend", false), ("sm:0", "stripMetadata", false), ("strip_metadata:1", "stripMetadata", true),
        ("ar:f", "autoRotate", false), ("auto_rotate:true", "autoRotate", true), ("att:1", "returnAttachment", true),
        ("return_attachment:x", "returnAttachment", false), ("scp:0", "stripColorProfile", false),
        ("strip_color_profile:1", "stripColorProfile", true), ("ph:1", "preserveHDR", true),
        ("preserve_hdr:t", "preserveHDR", true), ("ph:0", "preserveHDR", false), ("ph:on", "preserveHDR", false),
    ])
    func booleanOptionsParseAsGoDoes(path: String, field: String, value: Bool) throws {
        let o = try options(path)
        let fields = [
            "enlarge": o.enlarge, "extend": o.extend, "stripMetadata": o.stripMetadata, "autoRotate": o.autoRotate,
            "stripColorProfile": o.stripColorProfile, "preserveHDR": o.preserveHDR,
            "returnAttachment": o.returnAttachment,
        ]
        #expect(fields[field] == value)
    }

    @Test func gravityKindsOffsetsAndFocusPoint() throws {
        #expect(try options("g:noea:10:20").gravity == GravityOption(.northEast, x: 10, y: 20))
        #expect(try options("gravity:sm").gravity == GravityOption(.smart))
        #expect(try options("g:fp:0.25:0.75").gravity == GravityOption(.focusPoint, x: 0.25, y: 0.75))
        #expect(try options("g:ce:0.1").gravity == GravityOption(.center, x: 0.1, y: 0))
        #expect(status("g:fp:2:0") == 404)
        #expect(status("g:fp:0.5") == 404)
        #expect(status("g:sm:1") == 404)
        #expect(status("g:up") == 404)
        #expect(status("ex:1:sm") == 404, "extend has no smart gravity")
    }

    @Test func cropHasItsOwnGravity() throws {
        let o = try options("c:100:50:sowe:3:4/g:no")
        #expect(o.cropGravity == GravityOption(.southWest, x: 3, y: 4))
        #expect(o.gravity == GravityOption(.north))
        #expect(try options("c:10:10/g:ea").effectiveCropGravity.kind == .east)
    }

    @Test func backgroundHexShortHexAndRGB() throws {
        #expect(try options("bg:ff8000").background == RGBA(red: 255, green: 128, blue: 0))
        #expect(try options("background:f80").background == RGBA(red: 255, green: 136, blue: 0))
        #expect(try options("bg:1:2:3").background == RGBA(red: 1, green: 2, blue: 3))
        #expect(try options("bg:1:2:3/bg:").background == nil)
        for bad in ["bg:fff0", "bg:gggggg", "bg:256:0:0", "bg:1:2", "bg:-1:0:0"] {
            #expect(status(bad) == 404, "\(bad)")
        }
    }

    @Test func formatsQualitiesAndExtensions() throws {
        #expect(try options("f:png").format == .png)
        #expect(try options("format:jpg").format == .jpeg)
        #expect(try options("ext:webp").format == .webp)
        #expect(try options("fq:webp:50:jpeg:70").formatQuality == [.webp: 50, .jpeg: 70])
        #expect(try options("format_quality:avif:40").formatQuality == [.avif: 40])
        #expect(status("f:xyz") == 404)
        #expect(status("fq:webp") == 404)
        #expect(status("fq:webp:101") == 404)
        #expect(status("q:-1") == 404)
    }

    @Test func handlingOptions() throws {
        #expect(try options("cb:v2").cacheBuster == "v2")
        #expect(try options("cachebuster:abc").cacheIdentity != (try options("cb:abd").cacheIdentity))
        #expect(try options("fn:photo").filename == "photo")
        #expect(try options("filename:cGhvdG8gMQ:1").filename == "photo 1")
        #expect(try options("exp:0").expires == nil)
        #expect(try options("expires:2000", now: 1_000).expires == 2000)
        #expect(status("exp:999") == 404, "expired")
        #expect(status("exp:soon") == 404)
    }

    @Test func presetsApplyNestSkipRecursionAndDefaultApplies() throws {
        let presets = ["default=q:70", "thumb=rs:fill:100:100/pr:sharp", "sharp=sh:1/pr:thumb", "big=w:999"]
        let o = try options("pr:thumb", presets: presets)
        #expect((o.width, o.height, o.quality, o.sharpen) == (100, 100, 70, 1))
        #expect(o.usedPresets == ["default", "thumb", "sharp"])
        #expect(try options("preset:big:thumb", presets: presets).width == 100)
        #expect(try options("w:5/pr:big", presets: presets).width == 999)
        #expect(status("pr:nope", presets: presets) == 404)
        #expect(throws: ImageServerError.self) { try Presets(definitions: ["bad=w:x"]) }
        #expect(throws: ImageServerError.self) { try Presets(definitions: ["nameonly"]) }
        #expect(throws: ImageServerError.self) { try Presets(definitions: ["=w:1"]) }
        #expect(try Presets(definitions: ["# comment", " ", "a = w:1 "]).names == ["a"])
    }

    @Test(arguments: [
        "w:nan", "w:inf", "w:-1", "w:1e3", "w:99999999999999999999", "w:0x10", "w:", "w:1:2", "h:1.5",
        "dpr:0", "dpr:-1", "dpr:nan", "dpr:inf", "dpr:1e400", "dpr:0x10", "bl:-1", "bl:inf", "sh:nan",
        "c:-5", "c:nan", "g:ce:nan", "g:ce:inf:0", "rot:45", "rot:abc", "rt:stretch", "rs:huge", "q:101",
        "unknown:1", "padding:-10", "rs:fit:1:2:3:4:5:6:7:8", "ex:1:ce:1:2:3",
    ])
    func badArgumentsAre404NamingTheOption(path: String) {
        do {
            _ = try options(path)
            Issue.record("\(path) parsed")
        } catch let error as ImageServerError {
            #expect(error.status == 404)
            #expect(!error.message.isEmpty)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func errorsNameTheOption() {
        #expect(throws: ImageServerError(status: 404, "invalid dpr argument \"nan\": expected a positive number")) {
            try options("dpr:nan")
        }
        #expect(throws: ImageServerError(status: 404, "unknown processing option zz")) { try options("zz:1") }
        #expect(throws: ImageServerError(status: 404, "unknown preset p1")) { try options("pr:p1") }
    }

    @Test func randomOptionListsNeverCrashAndGiveBoundedGeometry() {
        var generator = SplitMix(seed: 0xC0FFEE)
        let names = [
            "rs", "s", "rt", "w", "h", "dpr", "el", "ex", "g", "c", "rot", "bg", "bl", "sh", "q", "fq", "f", "sm", "ar",
            "cb", "exp", "fn", "att", "pr", "zz", "exar", "pd", "fl", "mw", "mh", "z", "t", "pix",
        ]
        let args = [
            "", "0", "1", "-1", "0.5", "2", "90", "1e9", "1e10", "nan", "inf", "-inf", "1073741824", "fill", "fit",
            "fill-down", "force", "auto", "sm", "fp", "ce", "noea", "webp", "png", "jpg", "ff0000", "t", "p", "0x1",
        ]
        let parser = ImageURLParser(signer: nil, presets: (try? Presets(definitions: ["p=pr:p/w:5"])) ?? Presets())
        var parsed = 0
        for _ in 0..<20_000 {
            var segments: [String] = []
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                var segment = names[Int(generator.next() % UInt64(names.count))]
                for _ in 0..<(1 + Int(generator.next() % 4)) {
                    segment += ":" + args[Int(generator.next() % UInt64(args.count))]
                }
                segments.append(segment)
            }
            let path = "/x/" + segments.joined(separator: "/") + "/plain/http://e.example/a.jpg"
            guard let request = try? parser.parse(path, now: 0) else { continue }
            parsed += 1
            let source = PixelSize(width: 1 + Int(generator.next() % 4000), height: 1 + Int(generator.next() % 4000))
            let geometry = GeometryCalculator.geometry(
                source: source, options: request.options, maxResultDimension: 8192)
            #expect(geometry.resultSize.width >= 1 && geometry.resultSize.height >= 1)
            // imgproxy rounds the scaled image and each padded side apart: padding may pass the limit by 2.
            let bound = request.options.padding.isEnabled ? 8194 : 8192
            #expect(
                geometry.resultSize.width <= bound && geometry.resultSize.height <= bound,
                "\(path) \(source) \(geometry.resultSize)")
        }
        #expect(parsed > 200, "the generator reaches valid option lists")
    }

    @Test func randomPathsNeverCrash() {
        var generator = SplitMix(seed: 0x5EED)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789:/@.%-_+=?#&~!*()[] \u{0}é∞".unicodeScalars)
        let tokens = [
            "rs", "fill", "fit", "w", "h", "dpr", "g", "sm", "fp", "c", "ex", "bg", "pr", "plain", "exp", "fn",
            "1e308", "-0", "nan", "inf", "9223372036854775807", "-9223372036854775808", "0.5", "%3A", "//", ":",
        ]
        let parser = ImageURLParser(
            signer: nil, presets: (try? Presets(definitions: ["default=q:50", "p=pr:p"])) ?? Presets())
        for _ in 0..<20_000 {
            var path = "/"
            for _ in 0..<Int(generator.next() % 12) {
                if generator.next() % 2 == 0 {
                    path += tokens[Int(generator.next() % UInt64(tokens.count))]
                } else {
                    path.unicodeScalars.append(alphabet[Int(generator.next() % UInt64(alphabet.count))])
                }
                if generator.next() % 3 == 0 { path += ["/", ":"][Int(generator.next() % 2)] }
            }
            if let request = try? parser.parse(path, now: 0) {
                _ = GeometryCalculator.geometry(
                    source: PixelSize(
                        width: 1 + Int(generator.next() % 5000), height: 1 + Int(generator.next() % 5000)),
                    options: request.options, maxResultDimension: Int(generator.next() % 3) * 4000)
            }
        }
    }
}

/// A small deterministic generator for property tests.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
