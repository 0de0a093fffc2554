/// The default `dpr` and `width` a request's client hints give (imgproxy's `IMGPROXY_ENABLE_CLIENT_HINTS`, read as
/// its `clientfeatures.Detector` reads them): `Sec-CH-DPR`, else `DPR`, a number in (0, 8]; `Sec-CH-Width`, else
/// `Width`, an integer above 0 in physical pixels. A header that does not parse, or is out of range, is skipped for the
/// next one. The options of the URL and of the presets win over them.
public struct ClientHints: Sendable, Hashable {
    /// The device pixel ratio; 0 = none.
    public let dpr: Double
    /// The width in physical pixels, at most `OptionArguments.maxInteger`; 0 = none.
    public let width: Int

    /// The largest DPR a hint may give, as imgproxy's `maxClientHintDPR`.
    static let maxDPR = 8.0

    /// No hints.
    public static let none = ClientHints(dpr: 0, width: 0)

    private init(dpr: Double, width: Int) {
        self.dpr = dpr
        self.width = width
    }

    /// The hints of the headers' values, in imgproxy's order of precedence (`nil` = header absent).
    public init(secCHDPR: String?, dpr: String?, secCHWidth: String?, width: String?) {
        var ratio = 0.0
        for text in [secCHDPR, dpr] {
            guard let text, !text.isEmpty, let value = GoFloat.parse(text), value > 0, value <= Self.maxDPR else {
                continue
            }
            ratio = value
            break
        }
        var pixels = 0
        for text in [secCHWidth, width] {
            guard let text, !text.isEmpty, let value = try? OptionArguments.integer("width", text), value > 0 else {
                continue
            }
            pixels = value
            break
        }
        self.init(dpr: ratio, width: pixels)
    }

    /// Sets the hinted `dpr`, and the width in CSS pixels (the hinted width divided by the DPR, rounded), on
    /// `options`: the defaults a URL's own options then override, as in imgproxy.
    func apply(to options: inout ProcessingOptions) {
        if dpr > 0 { options.dpr = dpr }
        if width > 0 { options.width = Int((Double(width) / (dpr > 0 ? dpr : 1)).rounded()) }
    }
}
