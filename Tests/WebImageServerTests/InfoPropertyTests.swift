import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageServer

/// Random info option lists with ordinary and hostile numbers: the parser never traps, what it accepts is within
/// the documented ranges, and the report for a small picture has the promised shape.
@Suite struct InfoPropertyTests {
    static let picture: Data = {
        let pixels = PixelBuffer(width: 30, height: 20) { buffer in
            for index in buffer.indices { buffer[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 9) }
        }
        return (try? ImageCoders.default.encode(Image(pixels: pixels), as: .png, options: .default)) ?? Data()
    }()

    @Test func randomOptionListsNeverCrashAndStayInRange() throws {
        var generator = SplitMix(seed: 0x1AF0)
        let names = [
            "s", "f", "d", "exif", "xmp", "cs", "b", "sf", "pn", "a", "p", "avg", "dc", "bh", "th", "ph", "chs", "cb",
            "exp", "msr", "msfs", "pr", "zz", "hs", "vm", "vts", "vtk", "iptc", "do", "cl", "c", "op", "pg", "bc", "ct",
        ]
        let args = [
            "", "0", "1", "-1", "2", "9", "10", "16", "256", "257", "0.5", "1e9", "1e308", "nan", "inf", "t", "false",
            "9223372036854775807", "-9223372036854775808", "99999999999999999999", "md5", "sha512", "p", "0x10", "none",
            "ce", "d41d8cd98f00b204e9800998ecf8427e",
        ]
        var configuration = InfoConfiguration()
        configuration.allowsSecurityOptions = true
        configuration.presets = try InfoConfiguration.presets(definitions: ["p=pr:p/bh:2:2"])
        let parser = InfoURLParser(signer: nil, configuration: configuration)
        var parsed = 0
        for _ in 0..<SeededPropertyCount.cases(default: 3_000) {
            var segments: [String] = []
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                var segment = names[Int(generator.next() % UInt64(names.count))]
                for _ in 0..<(1 + Int(generator.next() % 3)) {
                    segment += ":" + args[Int(generator.next() % UInt64(args.count))]
                }
                segments.append(segment)
            }
            let path = "/_/" + segments.joined(separator: "/") + "/plain/http://e.example/a.png"
            guard let request = try? parser.parse(path, now: 0) else { continue }
            parsed += 1
            let options = request.options
            #expect(options.paletteColors == 0 || (2...256).contains(options.paletteColors))
            #expect((0...9).contains(options.blurHashX) && (0...9).contains(options.blurHashY))
            #expect((options.maxSourceResolution ?? 0) >= 0 && (options.maxSourceFileSize ?? 0) >= 0)
            #expect(Set(options.hashsums).isSubset(of: InfoHashsums.kinds))
            #expect(
                options.hashsumType.map { InfoHashsums.kinds.contains($0) && !options.expectedHashsum.isEmpty } ?? true)
            if parsed % 10 == 0 {
                guard options.hashsumType == nil else { continue }
                let report = try options.report(for: Self.picture, maxResolution: 1_000_000)
                let object = try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any]
                if options.blurHashX > 0, options.blurHashY > 0 {
                    let hash = object?["blurhash"] as? String
                    #expect(hash?.count == 4 + 2 * options.blurHashX * options.blurHashY)
                }
            }
        }
        #expect(parsed > 300, "the generator reaches valid option lists")
    }

    /// Every info option of the table (imgproxy Pro's others included) with random arguments: parsed or refused,
    /// never a trap, through the fuzz target's entry point too.
    @Test func everyInfoOptionTakesHostileArguments() {
        var generator = SplitMix(seed: 0x1F0)
        let args = [
            "", "0", "1", "-1", "9", "10", "257", "0.5", "1e308", "nan", "inf", "t", "md5", "none", "ce", "obj", "fp",
            "9223372036854775807", "99999999999999999999", "d41d8cd98f00b204e9800998ecf8427e", "face",
        ]
        var configuration = InfoConfiguration()
        configuration.allowsSecurityOptions = true
        let parser = InfoURLParser(signer: nil, configuration: configuration)
        var parsed: Set<String> = []
        for name in InfoOptionTable.byName.keys.sorted() {
            let plain = ["", "0", "0:0", "1:1", "none"].map { name + ":" + $0 }
            for index in 0..<100 {
                var segment = index < plain.count ? plain[index] : name
                for _ in 0..<(index < plain.count ? 0 : 1 + Int(generator.next() % 4)) {
                    segment += ":" + args[Int(generator.next() % UInt64(args.count))]
                }
                let path = "/_/" + segment + "/plain/http://e.example/a.png"
                FuzzEntries.infoURL(Data(path.utf8))
                if (try? parser.parse(path, now: 0)) != nil { parsed.insert(name) }
            }
        }
        #expect(parsed == Set(InfoOptionTable.byName.keys), "every info option parses with some arguments")
    }

    /// Random paths of option names, numbers and separators through the fuzz target's entry point
    /// (``FuzzEntries/infoURL(_:)``), whose preconditions check what parses.
    @Test func randomPathsThroughTheFuzzEntry() {
        var generator = SplitMix(seed: 0xF022)
        let tokens = [
            "bh", "p", "avg", "dc", "th", "ph", "chs", "msr", "msfs", "exp", "pr", "a", "exif", "plain", "md5", "9",
            "hs", "vm", "vts", "iptc", "do", "cl", "c", "op", "pg", "bc", "ct", "none",
            "10", "-1", "1e308", "nan", "0", "1", "256", "9223372036854775807", "%3A", "//", ":", "/", "@", ".",
            "aHR0cDovL2EvYi5wbmc", "http://a/b.png",
        ]
        for _ in 0..<SeededPropertyCount.cases(default: 2_000) {
            var path = "/_/"
            for _ in 0..<Int(generator.next() % 10) { path += tokens[Int(generator.next() % UInt64(tokens.count))] }
            FuzzEntries.infoURL(Data(path.utf8))
        }
        FuzzEntries.infoURL(Data("/_/avg:1/dc:1:1/bh:9:9/th:1/ph:1/p:256/a:1:1/plain/http://a/b.png".utf8))
    }
}

/// The case count of the property tests: `WEBIMAGE_PROPERTY_CASES` when set.
enum SeededPropertyCount {
    static func cases(default count: Int) -> Int {
        ProcessInfo.processInfo.environment["WEBIMAGE_PROPERTY_CASES"].flatMap { Int($0) } ?? count
    }
}
