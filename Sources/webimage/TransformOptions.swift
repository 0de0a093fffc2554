import ArgumentParser
import WebImage

/// The transform flags of `webimage fetch`, turned into a ``TransformerPipeline``.
struct TransformOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Resize to WIDTHxHEIGHT pixels (Lanczos3).", valueName: "WxH"))
    var resize: String?

    @Option(help: "How --resize fits: contain (inside, keep aspect), cover (fill and crop), fill (stretch).")
    var fit: String = "contain"

    @Option(help: ArgumentHelp("Crop to WxH (centred) or X,Y,WxH, before resizing.", valueName: "geometry"))
    var crop: String?

    @Option(help: "Rotate clockwise by this many degrees.")
    var rotate: Double?

    @Option(help: "Gaussian blur with this radius (standard deviation) in pixels.")
    var blur: Double?

    @Flag(help: "Convert to grayscale.")
    var grayscale = false

    /// The resize step, if any; its size also sets the decoder's shrink-on-load target.
    func resizeTransformer() throws(WebImageError) -> Resize? {
        guard let resize else { return nil }
        let mode: ResizeMode
        switch fit {
        case "contain": mode = .contain
        case "cover": mode = .cover
        case "fill": mode = .fill
        default: throw WebImageError(.invalidArgument, "--fit takes contain, cover or fill, not '\(fit)'")
        }
        return Resize(to: try Self.size(resize, flag: "--resize"), mode: mode)
    }

    /// All steps in order: crop, resize, rotate, blur, grayscale; `nil` when no flag asks for one.
    func pipeline() throws(WebImageError) -> TransformerPipeline? {
        var steps: [any ImageTransforming] = []
        if let crop { steps.append(try Self.crop(crop)) }
        if let resize = try resizeTransformer() { steps.append(resize) }
        if let rotate { steps.append(Rotate(degrees: rotate)) }
        if let blur { steps.append(Blur(radius: blur)) }
        if grayscale { steps.append(Grayscale()) }
        return steps.isEmpty ? nil : TransformerPipeline(steps)
    }

    private static func size(_ text: String, flag: String) throws(WebImageError) -> PixelSize {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
            throw WebImageError(.invalidArgument, "\(flag) takes WIDTHxHEIGHT with positive numbers, not '\(text)'")
        }
        return PixelSize(width: width, height: height)
    }

    private static func crop(_ text: String) throws(WebImageError) -> Crop {
        let parts = text.split(separator: ",")
        if parts.count == 1 { return Crop(size: try size(text, flag: "--crop")) }
        guard parts.count == 3, let x = Int(parts[0]), let y = Int(parts[1]) else {
            throw WebImageError(.invalidArgument, "--crop takes WxH or X,Y,WxH, not '\(text)'")
        }
        let size = try size(String(parts[2]), flag: "--crop")
        return Crop(to: PixelRect(x: x, y: y, width: size.width, height: size.height))
    }
}
