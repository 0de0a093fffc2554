import Foundation
import WebImage

/// How the server answers an SVG source, as imgproxy's `shouldSkipStandardProcessing` and `vectorGuardScale` decide.
///
/// Without a format in the URL (whatever `Accept` says, and with `--enforce-*`: imgproxy negotiates only for results
/// it processes) an SVG source is answered as SVG, never resized or otherwise processed, sanitised by default
/// (``SVGSanitizer``); so is a request that names `svg`. With `--always-rasterize-svg`, or a format in the URL, it
/// is rendered (at the size the geometry needs, see ``LoadPlan``) and processed as any image; imgproxy's `skp`
/// (skip processing) option, which would keep it SVG then, is not implemented by this server.
struct SVGAnswer: Sendable {
    /// Rasterise even when the URL names no format (imgproxy's `IMGPROXY_ALWAYS_RASTERIZE_SVG`).
    var alwaysRasterizes = false
    /// Sanitise what is answered as SVG (imgproxy's `IMGPROXY_SANITIZE_SVG`).
    var sanitizes = true

    /// Whether an SVG source is answered as SVG when the URL names `requested`.
    func answersAsSVG(requested: ImageFormat?) -> Bool {
        requested == .svg || (requested == nil && !alwaysRasterizes)
    }

    /// The SVG answer: the bytes, sanitised unless turned off, at the document's own size.
    func answer(_ data: Data, info: ImageInfo) throws(ImageServerError) -> ProcessedImage {
        let bytes = sanitizes ? try SVGSanitizer().sanitize(data) : data
        return ProcessedImage(data: bytes, format: .svg, size: PixelSize(width: info.width, height: info.height))
    }

    /// The header of an SVG source as the geometry plans from it: its own size, scaled down with its aspect ratio to
    /// the resolution limit when larger (imgproxy's `vectorGuardScale`: a vector is rendered smaller rather than
    /// refused).
    static func guarded(_ info: ImageInfo, limits: ServerLimits) -> ImageInfo {
        let (area, overflow) = info.width.multipliedReportingOverflow(by: info.height)
        guard overflow || area > limits.maxSourceResolution, limits.maxSourceResolution > 0 else { return info }
        let shrink = (Double(info.width) * Double(info.height) / Double(limits.maxSourceResolution)).squareRoot()
        var guarded = info
        guarded.width = max(1, Int(Double(info.width) / shrink))
        guarded.height = max(1, Int(Double(info.height) / shrink))
        return guarded
    }
}

extension ProcessingOptions {
    /// The options a vector source is planned with: imgproxy enlarges a vector to the requested size whatever
    /// `enlarge` says (it has no pixels to blur).
    var forVectorSource: ProcessingOptions {
        var options = self
        options.enlarge = true
        return options
    }
}
