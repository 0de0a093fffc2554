import Foundation
import WebImage

extension ProcessingOptions {
    /// The one spelling of these options and `source` that ``ImageURLBuilder`` writes (without the signature): every
    /// option that differs from its default, by its long name, in the order of the README's option table, then the
    /// source in URL-safe base64 and the format as the extension. A load balancer that hashes URLs then sends every
    /// request for one result to one node. Presets are written out as the options they set.
    public func canonicalPath(source: String) -> String {
        var parts: [String] = []
        let defaults = ProcessingOptions()
        if resizingType != defaults.resizingType { parts.append("resizing_type:\(resizingType.rawValue)") }
        if width != 0 { parts.append("width:\(width)") }
        if height != 0 { parts.append("height:\(height)") }
        if minWidth != 0 { parts.append("min-width:\(minWidth)") }
        if minHeight != 0 { parts.append("min-height:\(minHeight)") }
        if zoomWidth != 1 || zoomHeight != 1 {
            parts.append(
                zoomWidth == zoomHeight
                    ? "zoom:\(Self.number(zoomWidth))" : "zoom:\(Self.number(zoomWidth)):\(Self.number(zoomHeight))")
        }
        if dpr != 1 { parts.append("dpr:\(Self.number(dpr))") }
        if enlarge { parts.append("enlarge:1") }
        if extend || extendGravity != .center {
            parts.append("extend:\(extend ? 1 : 0):\(Self.gravity(extendGravity))")
        }
        if extendAspectRatio || extendAspectRatioGravity != .center {
            let placement = Self.gravity(extendAspectRatioGravity)
            parts.append("extend_aspect_ratio:\(extendAspectRatio ? 1 : 0):\(placement)")
        }
        if gravity != .center { parts.append("gravity:\(Self.gravity(gravity))") }
        if cropWidth != 0 || cropHeight != 0 || cropGravity != nil {
            var crop = "crop:\(Self.number(cropWidth)):\(Self.number(cropHeight))"
            if let cropGravity { crop += ":" + Self.gravity(cropGravity) }
            parts.append(crop)
        }
        if padding.isEnabled {
            parts.append("padding:\(padding.top):\(padding.right):\(padding.bottom):\(padding.left)")
        }
        if rotate != 0 { parts.append("rotate:\(rotate)") }
        if flipHorizontal || flipVertical { parts.append("flip:\(flipHorizontal ? 1 : 0):\(flipVertical ? 1 : 0)") }
        if let background { parts.append("background:\(background.red):\(background.green):\(background.blue)") }
        if blur != 0 { parts.append("blur:\(Self.number(blur))") }
        if sharpen != 0 { parts.append("sharpen:\(Self.number(sharpen))") }
        if quality != 0 { parts.append("quality:\(quality)") }
        if !formatQuality.isEmpty {
            let pairs = formatQuality.sorted { Self.name($0.key) < Self.name($1.key) }
            parts.append("format_quality:" + pairs.map { "\(Self.name($0.key)):\($0.value)" }.joined(separator: ":"))
        }
        if !stripMetadata { parts.append("strip_metadata:0") }
        if !stripColorProfile { parts.append("strip_color_profile:0") }
        if !autoRotate { parts.append("auto_rotate:0") }
        if !cacheBuster.isEmpty { parts.append("cachebuster:\(cacheBuster)") }
        if let expires { parts.append("expires:\(expires)") }
        if !filename.isEmpty { parts.append("filename:\(Base64URL.encode(Array(filename.utf8))):1") }
        if returnAttachment { parts.append("return_attachment:1") }
        let encoded = Base64URL.encode(Array(source.utf8))
        let path = (parts + [encoded]).joined(separator: "/")
        return "/" + path + (format.map { "." + Self.name($0) } ?? "")
    }

    /// imgproxy's name for `format` (the shortest of its names, `jpg` for JPEG).
    static func name(_ format: ImageFormat) -> String {
        OutputFormat.byName.filter { $0.value == format }.keys.min { ($0.count, $0) < ($1.count, $1) }
            ?? format.name
    }

    /// The shortest spelling of `gravity` that reads back as it: the kind alone without offsets.
    static func gravity(_ gravity: GravityOption) -> String {
        gravity.kind == .smart || (gravity.x == 0 && gravity.y == 0 && gravity.kind != .focusPoint)
            ? gravity.kind.rawValue : "\(gravity.kind.rawValue):\(number(gravity.x)):\(number(gravity.y))"
    }

    /// The shortest text that reads back as `value`: `2` rather than `2.0`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
