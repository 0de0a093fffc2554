import Testing
import WebImage

@testable import WebImageServer

/// imgproxy's handling and security options as the parser reads them (`keep_copyright`, `enforce_thumbnail`,
/// `max_bytes`, `skip_processing`, `raw`, the security options), and the rules of which options a URL may use:
/// allowed options, only presets, security options, as imgproxy's `options/parser` does.
@Suite("Server: handling and security options, option rules")
struct ParityOptionTests: OptionParsing {
    /// The options of `/x/SEGMENTS/plain/…` (or of `/x/SEGMENTS/plain/…@ext`) for a parser with `rules`, `presets`
    /// and `defaults`.
    func parse(
        _ segments: String, ext: String? = nil, rules: OptionRules = OptionRules(), presets: [String] = [],
        defaults: ProcessingOptions = ProcessingOptions()
    ) throws -> ProcessingOptions {
        let parser = ImageURLParser(
            signer: nil, presets: try Presets(definitions: presets), defaults: defaults, rules: rules)
        let path = "/x/\(segments)/plain/http://example.com/a.png" + (ext.map { "@" + $0 } ?? "")
        return try parser.parse(path, now: 0).options
    }

    /// The status `parse` refuses with; `nil` when it parses.
    func refusal(_ segments: String, rules: OptionRules = OptionRules(), presets: [String] = []) -> Int? {
        do {
            _ = try parse(segments, rules: rules, presets: presets)
            return nil
        } catch let error as ImageServerError {
            return error.status
        } catch {
            return -1
        }
    }

    static let allowingSecurity: OptionRules = {
        var rules = OptionRules()
        rules.allowsSecurityOptions = true
        return rules
    }()

    @Test func handlingOptionsParseAsImgproxys() throws {
        #expect(try options("kcr:0").keepCopyright == false)
        #expect(try options("keep_copyright:f").keepCopyright == false)
        #expect(try options("eth:1").enforceThumbnail)
        #expect(try options("mb:1024").maxBytes == 1024)
        #expect(try options("max_bytes:0").maxBytes == 0)
        #expect(try options("mb:9223372036854775807").maxBytes == Int.max, "Go's Atoi takes any 64-bit integer")
        #expect(status("mb:-1") == 404)
        #expect(status("mb:1.5") == 404)
        #expect(status("mb:9223372036854775808") == 404)
        #expect(try options("skp:jpg:png").skipProcessingFormats == [.jpeg, .png])
        #expect(try options("skp:jpg/skp:webp").skipProcessingFormats == [.jpeg, .webp], "appended, as imgproxy")
        #expect(status("skp:jpg:bogus") == 404)
        #expect(try options("raw:1").raw)
        #expect(try options("raw:nope").raw == false, "imgproxy takes what ParseBool refuses for false")
        #expect(status("raw:1:1") == 404)
    }

    @Test func rawIgnoresTheExtension() throws {
        #expect(try parse("raw:1", ext: "webp").format == nil)
        #expect(try parse("raw:0", ext: "webp").format == .webp)
    }

    @Test func securityOptionsAreRefusedUnlessAllowed() throws {
        for segment in ["max_src_resolution:1", "msr:1", "msfs:100", "maf:2", "mafr:1", "mrd:100"] {
            #expect(refusal(segment) == 403, "\(segment)")
            #expect(refusal(segment, rules: Self.allowingSecurity) == nil, "\(segment)")
            #expect(refusal("pr:p", presets: ["p=\(segment)"]) == 403, "in a preset too: \(segment)")
        }
        let rules = Self.allowingSecurity
        let security = try parse("msr:2.5/msfs:-1/maf:3/mafr:0.5/mrd:0", rules: rules).security
        #expect(security.maxSourceResolution == 2.5)
        #expect(security.maxSourceFileSize == -1)
        #expect(security.maxAnimationFrames == 3)
        #expect(security.maxAnimationFrameResolution == 0.5)
        #expect(security.maxResultDimension == 0)
        #expect(refusal("maf:0", rules: rules) == 404, "a positive number")
        #expect(refusal("msr:-1", rules: rules) == 404, "a positive number or 0")
    }

    @Test func securityOverridesReplaceTheServersLimits() {
        var overrides = SecurityOverrides()
        overrides.maxSourceResolution = 2.5
        overrides.maxSourceFileSize = 0
        overrides.maxAnimationFrames = 3
        overrides.maxAnimationFrameResolution = 0.5
        overrides.maxResultDimension = 99_999_999_999
        let limits = overrides.applied(to: ServerLimits())
        #expect(limits.maxSourceResolution == 2_500_000)
        #expect(limits.maxSourceFileSize == .max, "0 is no limit, as in imgproxy")
        #expect(limits.maxAnimationFrames == 3)
        #expect(limits.maxAnimationFrameResolution == 500_000)
        #expect(limits.maxResultDimension == 65_535, "clamped to what the geometry takes")
        overrides.maxSourceResolution = .infinity
        overrides.maxResultDimension = -5
        #expect(overrides.applied(to: ServerLimits()).maxSourceResolution == 10_000_000_000)
        #expect(overrides.applied(to: ServerLimits()).maxResultDimension == 0)
        overrides.maxSourceResolution = .nan
        #expect(overrides.applied(to: ServerLimits()).maxSourceResolution == 0)
        #expect(SecurityOverrides().applied(to: ServerLimits()) == ServerLimits())
    }

    @Test func presetsWithSecurityOptionsNeedTheServerToAllowThem() throws {
        var configuration = ImageServerConfiguration()
        configuration.presets = try Presets(definitions: ["big=mrd:10000"])
        #expect(throws: ImageServerConfigurationError.self) { try configuration.validate() }
        configuration.optionRules.allowsSecurityOptions = true
        try configuration.validate()
    }

    @Test func onlyAllowedOptionsAreTakenButPresetsTakeAny() throws {
        var rules = OptionRules()
        rules.allowedOptions = ["w", "pr", "h"]
        #expect(refusal("w:100/h:50", rules: rules) == nil)
        #expect(refusal("width:100", rules: rules) == 404, "names are compared as written, as imgproxy does")
        #expect(refusal("bl:2", rules: rules) == 404)
        #expect(refusal("pr:blurry", rules: rules, presets: ["blurry=bl:2"]) == nil)
        #expect(try parse("pr:blurry", rules: rules, presets: ["blurry=bl:2"]).blur == 2)
    }

    @Test func onlyPresetsURLsNameOnlyPresets() throws {
        var rules = OptionRules()
        rules.onlyPresets = true
        let parser = ImageURLParser(
            signer: nil, presets: try Presets(definitions: ["small=w:100", "blur=bl:3", "default=q:70"]), rules: rules)
        let options = try parser.parse("/x/small:blur/plain/http://example.com/a.png@webp", now: 0).options
        #expect(options.width == 100 && options.blur == 3 && options.quality == 70 && options.format == .webp)
        #expect(options.usedPresets == ["default", "small", "blur"])
        #expect(throws: ImageServerError.self) { try parser.parse("/x/w:100/plain/http://example.com/a.png", now: 0) }
        #expect(throws: ImageServerError.self) { try parser.parse("/x/plain/http://example.com/a.png", now: 0) }
    }

    @Test func theServersDefaultsComeFirst() throws {
        var defaults = ProcessingOptions()
        defaults.returnAttachment = true
        defaults.keepCopyright = false
        defaults.skipProcessingFormats = [.gif]
        #expect(try parse("w:10", defaults: defaults).returnAttachment)
        #expect(try parse("att:0", defaults: defaults).returnAttachment == false)
        #expect(try parse("kcr:1", defaults: defaults).keepCopyright)
        #expect(try parse("skp:png", defaults: defaults).skipProcessingFormats == [.gif, .png])
    }

    /// Numbers as Go's `strconv` reads them (imgproxy's `options/parser`): 64-bit integers, clamped where they become
    /// sizes; decimals of any length; hexadecimal floats with a `p` exponent; `Infinity` for a crop.
    @Test func numbersParseAsGosStrconv() throws {
        let crop = try options("c:99999999999:Infinity")
        #expect(crop.cropWidth == OptionArguments.maxFloat && crop.cropHeight == OptionArguments.maxFloat)
        let geometry = GeometryCalculator.geometry(
            source: PixelSize(width: 300, height: 200), options: crop, maxResultDimension: 8192)
        #expect(geometry.resultSize == PixelSize(width: 300, height: 200), "clamped to the image, as imgproxy does")
        #expect(try options("w:99999999999").width == OptionArguments.maxInteger)
        #expect(try options("mh:2000000000").minHeight == OptionArguments.maxInteger)
        #expect(try options("rot:99999999990").rotate == 270, "a 64-bit multiple of 90")
        #expect(try options("rot:-90").rotate == 270)
        #expect(try options("bl:1.\(String(repeating: "0", count: 200))1").blur == 1, "decimals of any length")
        #expect(try options("dpr:0x1p1").dpr == 2, "hexadecimal with a p exponent")
        #expect(try options("wm:0x1p-1").watermark.opacity == 0.5)
        #expect(try options("c:.5:1.").cropWidth == 0.5)
        #expect(try options("bl:+2").blur == 2)
        for refused in [
            "w:99999999999999999999", "w:1_000", "bl:0x10", "bl:1e400", "bl:inf", "dpr:nan", "c:-1", "bl:1e",
        ] {
            #expect(status(refused) == 404, "\(refused)")
        }
    }

    /// `--jxl-effort` (imgproxy's `IMGPROXY_JXL_EFFORT`, 1 to 9) reaches the JPEG XL encoder as the library speed of
    /// that effort; other formats leave the speed alone; without a setting, imgproxy's defaults: JPEG XL effort 4,
    /// AVIF speed 8, WebP method 4 with the default preset.
    @Test func jxlEffortBecomesTheEncodersSpeed() throws {
        for effort in 1...9 {
            #expect(JXLCoder.effort(forSpeed: EncoderSettings.jxlSpeed(effort: effort)) == effort)
            var settings = EncoderSettings()
            settings.jxlEffort = effort
            let speed = try #require(settings.encoding(for: .jxl, quality: 80).speed)
            #expect(JXLCoder.effort(forSpeed: speed) == effort)
            #expect(settings.encoding(for: .webp, quality: 80).speed == nil)
            #expect(throws: Never.self) { try settings.validate() }
        }
        let defaults = EncoderSettings()
        #expect(JXLCoder.effort(forSpeed: try #require(defaults.encoding(for: .jxl, quality: 80).speed)) == 4)
        #expect(defaults.encoding(for: .avif, quality: 80).speed == 8)
        let webp = defaults.encoding(for: .webp, quality: 80)
        #expect(webp.webpEffort == 4 && webp.webpPreset == .default && webp.speed == nil)
        for effort in [0, 10, -1] {
            var settings = EncoderSettings()
            settings.jxlEffort = effort
            #expect(throws: ImageServerConfigurationError.self) { try settings.validate() }
        }
    }

    @Test func goFloatSyntax() {
        #expect(GoFloat.parse("1") == 1 && GoFloat.parse("-1.5e2") == -150 && GoFloat.parse(".5") == 0.5)
        #expect(GoFloat.parse("1.") == 1 && GoFloat.parse("0X1.8P1") == 3 && GoFloat.parse("+Inf") == .infinity)
        #expect(GoFloat.parse("-infinity") == -.infinity && GoFloat.parse("NaN")?.isNaN == true)
        for bad in [
            "", ".", "e5", "1e", "1e+", "0x", "0x1", "0x1.p", "1_0", "--1", "+nan", "1 ", " 1", "1e400", "infinit",
        ] {
            #expect(GoFloat.parse(bad) == nil, "\(bad)")
        }
        #expect(GoFloat.parse("1e-400") == 0, "underflow is 0, as in Go")
    }
}
