import ArgumentParser
import Foundation
import WebImageServer

/// `webimage serve`'s watermark options, imgproxy's `IMGPROXY_WATERMARK_*`: the image the `watermark` option lays
/// over results, from base64 bytes, a file or a URL (in that order of precedence, as imgproxy), and its base opacity.
/// Each defaults to `WEBIMAGE_WATERMARK_<NAME>`, else to imgproxy's `IMGPROXY_WATERMARK_<NAME>`.
struct WatermarkOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The watermark image, base64-encoded.", valueName: "BASE64"))
    var watermarkData = Self.variable("DATA")
    @Option(help: ArgumentHelp("The watermark image file.", valueName: "PATH"))
    var watermarkPath = Self.variable("PATH")
    @Option(help: ArgumentHelp("The watermark image URL, fetched as a source at first use.", valueName: "URL"))
    var watermarkUrl = Self.variable("URL")
    @Option(
        help: ArgumentHelp(
            "The watermark's base opacity, above 0 and at most 1 (the wm option's multiplies it).", valueName: "OPACITY"
        ))
    var watermarkOpacity: Double?

    /// Sets `configuration.watermark` when an image is given; throws for a value that does not parse.
    func apply(to configuration: inout ImageServerConfiguration) throws {
        let source: WatermarkSource
        if let watermarkData {
            guard let data = Data(base64Encoded: watermarkData) else {
                throw ValidationError("--watermark-data must be base64")
            }
            source = .data(data)
        } else if let watermarkPath {
            source = .path(URL(fileURLWithPath: watermarkPath))
        } else if let watermarkUrl {
            guard let url = URL(string: watermarkUrl) else { throw ValidationError("--watermark-url must be a URL") }
            source = .url(url)
        } else {
            return
        }
        var opacity = 1.0
        if let watermarkOpacity {
            opacity = watermarkOpacity
        } else if let variable = Self.variableNamed("OPACITY") {
            guard let number = Double(variable.value) else {
                throw ValidationError("\(variable.name)=\(variable.value): must be a number")
            }
            opacity = number
        }
        configuration.watermark = WatermarkConfiguration(source: source, opacity: opacity)
    }

    /// imgproxy's variables these options read, so that the start-up warning does not name them.
    static let imgproxyNames = ["DATA", "PATH", "URL", "OPACITY"].map { "IMGPROXY_WATERMARK_" + $0 }

    /// The value of `WEBIMAGE_WATERMARK_<name>`, else of `IMGPROXY_WATERMARK_<name>`; empty is unset.
    private static func variable(_ name: String) -> String? { variableNamed(name)?.value }

    /// The variable ``variable(_:)`` reads, and its value.
    private static func variableNamed(_ name: String) -> (name: String, value: String)? {
        let environment = ProcessInfo.processInfo.environment
        return ["WEBIMAGE_WATERMARK_", "IMGPROXY_WATERMARK_"].lazy.compactMap { prefix in
            environment[prefix + name].flatMap { $0.isEmpty ? nil : (prefix + name, $0) }
        }.first
    }
}
