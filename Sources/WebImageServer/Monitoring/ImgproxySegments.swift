/// imgproxy 4's names of the segments its monitors get (`Queue`, `Downloading source image`, `Processing image`, in
/// `handlers/processing` and `imagedata`), for the server's stages that imgproxy has: each vendor writes them its
/// own way (Datadog lower case with `_`, New Relic `Custom/…`). The server's finer stages keep their own names.
enum ImgproxySegments {
    /// imgproxy's name of the stage `name`, or `name` itself.
    static func name(_ name: String) -> String {
        switch name {
        case "queue": "Queue"
        case "source fetch": "Downloading source image"
        case "processing": "Processing image"
        default: name
        }
    }

    /// imgproxy's `FormatSegmentName`: lower case, spaces as `_` (`downloading_source_image`).
    static func formatted(_ name: String) -> String {
        self.name(name).lowercased().replacingOccurrences(of: " ", with: "_")
    }
}
