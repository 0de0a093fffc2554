/// Which attributes the SVG sanitiser keeps: imgproxy's `unsafe_attrs.go` and `href.go`, a little stricter.
enum SVGLinkRules {
    /// Schemes a link may use on most elements (imgproxy's `hrefSchemes`).
    static let linkSchemes: Set<String> = ["http", "https"]
    /// Schemes an `<image>` may use (imgproxy's `imageHrefSchemes`).
    static let imageSchemes: Set<String> = ["http", "https", "data"]

    /// Whether the attribute `name` (local, lowercased) of `element` with `value` (references resolved; `nil` when
    /// one could not be) is kept.
    ///
    /// Removed: every `on…` attribute (imgproxy lists the event handlers it knows; any `on` prefix is removed here, so
    /// that a handler added to browsers later is too), a `<use>` link that is not a fragment, a link whose scheme is
    /// not allowed for its element, and an animation value list with a value whose scheme is not a link scheme.
    static func keeps(attribute name: String, of element: String, value: String?, animationValues: Set<String>) -> Bool
    {
        if name.hasPrefix("on") { return false }
        if name == "href" {
            guard let value else { return false }
            switch element {
            case "use":
                let trimmed = normalized(value)
                return trimmed.isEmpty || trimmed.hasPrefix("#")
            case "image": return isSafe(value, schemes: imageSchemes)
            default: return isSafe(value, schemes: linkSchemes)
            }
        }
        if animationValues.contains(name), element.hasPrefix("animate") || element == "set" {
            guard let value else { return false }
            return value.split(separator: ";").allSatisfy { isSafe(String($0), schemes: linkSchemes) }
        }
        return true
    }

    /// imgproxy's `isSafeHref`: empty, a fragment, a relative or protocol-relative reference, or an allowed scheme.
    static func isSafe(_ value: String, schemes: Set<String>) -> Bool {
        let link = normalized(value)
        guard let first = link.unicodeScalars.first, first != "#" else { return true }
        guard first.isASCII, first.properties.isAlphabetic else { return true }
        var scheme = ""
        for scalar in link.unicodeScalars {
            if scalar == ":" { return schemes.contains(scheme.lowercased()) }
            let schemeCharacter =
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "+.-".unicodeScalars.contains(scalar)
            guard scalar.isASCII, schemeCharacter else { return true }
            scheme.unicodeScalars.append(scalar)
        }
        return true
    }

    /// A link as a browser's URL parser reads it: leading and trailing C0 controls and spaces removed, and tabs and
    /// newlines removed everywhere (so `java\tscript:` is `javascript:`, which imgproxy's check would take for a
    /// relative reference).
    static func normalized(_ value: String) -> String {
        let kept = value.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
        let trimmed = String(String.UnicodeScalarView(kept)).unicodeScalars.drop { $0.value <= 0x20 }
        return String(String.UnicodeScalarView(trimmed.reversed().drop { $0.value <= 0x20 }.reversed()))
    }
}
