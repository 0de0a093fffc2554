import ArgumentParser
import Foundation
import WebImageServer

/// `webimage serve`'s watermark options, imgproxy's `IMGPROXY_WATERMARK_*`: the image the `watermark` option lays
/// over results, from base64 bytes, a file or a URL (in that order of precedence, as imgproxy), and its base opacity.
/// Each defaults to `WEBIMAGE_WATERMARK_<NAME>`, else to imgproxy's `IMGPROXY_WATERMARK_<NAME>` (``Settings``).
struct WatermarkOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The watermark image, base64-encoded.", valueName: "BASE64"))
    var watermarkData: String?
    @Option(help: ArgumentHelp("The watermark image file.", valueName: "PATH"))
    var watermarkPath: String?
    @Option(help: ArgumentHelp("The watermark image URL, fetched as a source at first use.", valueName: "URL"))
    var watermarkUrl: String?
    @Option(
        help: ArgumentHelp(
            "The watermark's base opacity, above 0 and at most 1 (the wm option's multiplies it).", valueName: "OPACITY"
        ))
    var watermarkOpacity: Double?

    /// Sets `configuration.watermark` when an image is given; throws for a value that does not parse.
    func apply(to configuration: inout ImageServerConfiguration) throws {
        let source: WatermarkSource
        if let data = try Settings.watermarkData.resolve(watermarkData) {
            guard let bytes = Data(base64Encoded: data) else {
                throw ValidationError("--watermark-data must be base64")
            }
            source = .data(bytes)
        } else if let path = try Settings.watermarkPath.resolve(watermarkPath) {
            source = .path(URL(fileURLWithPath: path))
        } else if let text = try Settings.watermarkURL.resolve(watermarkUrl) {
            guard let url = URL(string: text) else { throw ValidationError("--watermark-url must be a URL") }
            source = .url(url)
        } else {
            return
        }
        let opacity = try Settings.watermarkOpacity.resolve(watermarkOpacity) ?? 1
        configuration.watermark = WatermarkConfiguration(source: source, opacity: opacity)
    }
}
