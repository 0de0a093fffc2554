import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageServer

/// Random option lists with the handling and security options (`mb`, `skp`, `raw`, `kcr`, `eth`, `msr`, `msfs`,
/// `maf`, `mafr`, `mrd`) and numbers of every spelling Go takes, through the parser and the whole pixel pipeline:
/// never a trap, never a hang, a result within the request's limits or a typed refusal.
@Suite("Server: handling and security options property test")
struct ParityPropertyTests {
    static let names = [
        "mb", "skp", "raw", "kcr", "eth", "msr", "msfs", "maf", "mafr", "mrd", "w", "h", "c", "q", "rs", "pix", "sm",
        "ph",
        "f",
    ]
    static let args = [
        "", "0", "1", "2", "-1", "10", "64", "100", "1e3", "0.0001", "2.5", "99999999999", "9223372036854775807",
        "-9223372036854775808", "99999999999999999999", "Infinity", "inf", "nan", "0x1p3", "0x10", "1e400",
        "0.000000000000000000000000000000000000001", "jpg", "png", "webp", "gif", "fill", "t", "f",
    ]

    static func randomPath(_ generator: inout SplitMix) -> String {
        var segments: [String] = []
        for _ in 0..<(1 + Int(generator.next() % 4)) {
            var segment = names[Int(generator.next() % UInt64(names.count))]
            for _ in 0..<(1 + Int(generator.next() % 3)) {
                segment += ":" + args[Int(generator.next() % UInt64(args.count))]
            }
            segments.append(segment)
        }
        return "/x/" + segments.joined(separator: "/") + "/plain/http://e.example/a.png"
    }

    @Test func randomListsParseToBoundedOptionsAndReadBackCanonically() {
        var generator = SplitMix(seed: 0xBEEF)
        var rules = OptionRules()
        rules.allowsSecurityOptions = true
        let parser = ImageURLParser(signer: nil, rules: rules)
        var parsed = 0
        for _ in 0..<20_000 {
            let path = Self.randomPath(&generator)
            FuzzEntries.url(Data(path.utf8))
            guard let request = try? parser.parse(path, now: 0) else { continue }
            parsed += 1
            let options = request.options
            #expect(options.maxBytes >= 0 && options.width <= OptionArguments.maxInteger, "\(path)")
            #expect(options.cropWidth.isFinite && options.cropWidth <= OptionArguments.maxFloat, "\(path)")
            let limits = options.security.applied(to: ServerLimits())
            #expect(limits.maxResultDimension >= 0 && limits.maxResultDimension <= 65_535, "\(path)")
            #expect(limits.maxSourceResolution >= 0 && limits.maxAnimationFrames >= 1, "\(path)")
            let canonical = options.canonicalPath(source: request.source)
            let again = try? parser.parse("/x" + canonical, now: 0)
            #expect(again?.options == options, "\(path) → \(canonical)")
        }
        #expect(parsed > 500, "the generator reaches valid option lists")
    }

    /// Every option of the table, however it came in (the new ones included), with its sample arguments and one of
    /// them replaced by a hostile value: parsed to bounded options that read back canonically, or refused, through
    /// the fuzz target's entry point too.
    @Test func everyTableOptionTakesHostileArguments() {
        var generator = SplitMix(seed: 0x7AB1E)
        var rules = OptionRules()
        rules.allowsSecurityOptions = true
        let parser = ImageURLParser(signer: nil, rules: rules)
        var parsed: Set<String> = []
        for entry in OptionTable.entries {
            for _ in 0..<200 {
                var args = entry.sample
                if !args.isEmpty, generator.next() % 4 != 0 {
                    args[Int(generator.next() % UInt64(args.count))] =
                        Self.args[Int(generator.next() % UInt64(Self.args.count))]
                }
                if generator.next() % 5 == 0 { args.append(Self.args[Int(generator.next() % UInt64(Self.args.count))]) }
                let name = entry.names[Int(generator.next() % UInt64(entry.names.count))]
                let path = "/x/" + ([name] + args).joined(separator: ":") + "/plain/http://e.example/a.png"
                FuzzEntries.url(Data(path.utf8))
                guard let request = try? parser.parse(path, now: 0) else { continue }
                parsed.insert(entry.name)
                let options = request.options
                #expect(options.width <= OptionArguments.maxInteger && options.maxBytes >= 0, "\(path)")
                #expect(options.cropWidth.isFinite && options.blur <= OptionArguments.maxFloat, "\(path)")
                let again = try? parser.parse("/x" + options.canonicalPath(source: request.source), now: 0)
                #expect(again?.options == options, "\(path)")
            }
        }
        #expect(parsed == Set(OptionTable.entries.map(\.name)), "every option parses with some arguments")
    }

    @Test func randomListsOnRealPixelsNeverCrash() throws {
        var generator = SplitMix(seed: 0xD00D)
        var rules = OptionRules()
        rules.allowsSecurityOptions = true
        let parser = ImageURLParser(signer: nil, rules: rules)
        var limits = ServerLimits()
        limits.maxResultDimension = 64
        let processor = ImageProcessor(coders: ImageCoders.default, limits: limits)
        let sources = try [(.png, 23, 11), (.jpeg, 9, 17), (.webp, 1, 1)].map { (format: ImageFormat, w: Int, h: Int) in
            let pixels = PixelBuffer(width: w, height: h) { buffer in
                for index in 0..<buffer.count { buffer[index] = UInt8(truncatingIfNeeded: index &* 53) }
            }
            return try ImageCoders.default.encode(Image(pixels: pixels), as: format, options: .default)
        }
        var processed = 0
        for _ in 0..<3_000 {
            let path = Self.randomPath(&generator)
            guard let request = try? parser.parse(path, now: 0) else { continue }
            let data = sources[Int(generator.next() % UInt64(sources.count))]
            let format: ImageFormat? = [.png, .jpeg, .webp, nil][Int(generator.next() % 4)]
            do {
                let result = try processor.process(data, options: request.options, format: format)
                let image = try ImageCoders.default.decode(result.data, options: .default)
                #expect(image.size == result.size, "\(path)")
                let bound = request.options.security.applied(to: limits).maxResultDimension
                if bound > 0 && result.data != data {
                    #expect(result.size.width <= bound && result.size.height <= bound, "\(path) \(result.size)")
                }
                processed += 1
            } catch let error as ImageServerError {
                #expect(error.status == 422, "\(path): \(error)")
            } catch {
                Issue.record("\(path): \(error)")
            }
        }
        #expect(processed > 100)
    }
}
