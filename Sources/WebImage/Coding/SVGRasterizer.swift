import CRSVG
import Foundation

/// Renders an ``SVGDocument`` with cairo into one ``PixelBuffer``.
enum SVGRasterizer {
    /// The pixel size at which a document of `intrinsic` CSS pixels is rendered: the smallest size with its aspect
    /// ratio that covers `target` (larger or smaller than the intrinsic size: a vector has no pixels to shrink), or the
    /// intrinsic size, rounded up, without a target.
    static func renderSize(intrinsic: SVGDocument.Layout, target: PixelSize?) -> (Double, Double) {
        guard let target, target.width > 0, target.height > 0 else {
            return (intrinsic.width.rounded(.up), intrinsic.height.rounded(.up))
        }
        let scale = max(Double(target.width) / intrinsic.width, Double(target.height) / intrinsic.height)
        return (
            max(Double(target.width), (intrinsic.width * scale).rounded()),
            max(Double(target.height), (intrinsic.height * scale).rounded())
        )
    }

    /// Renders `document`, whose intrinsic size is `intrinsic`, at `width` by `height` pixels, which the caller has
    /// checked against the limits, into straight-alpha RGBA.
    static func render(
        _ document: SVGDocument, intrinsic: SVGDocument.Layout, width: Int, height: Int
    ) throws(WebImageError) -> PixelBuffer {
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
        guard stride == width * 4 else {
            throw WebImageError(.tooLarge, "cairo cannot render \(width) pixels in a row")
        }
        do {
            return try PixelBuffer(width: width, height: height) { buffer throws(WebImageError) in
                guard let base = buffer.baseAddress else {
                    throw WebImageError(.tooLarge, "no memory for a \(width)x\(height) render")
                }
                base.initialize(repeating: 0, count: buffer.count)
                try draw(document, intrinsic: intrinsic, into: base, width: width, height: height)
                unpremultiply(buffer)
            }
        } catch let error as WebImageError {
            throw error
        } catch {
            throw WebImageError(.corruptData, "the SVG cannot be rendered")
        }
    }

    private static func draw(
        _ document: SVGDocument, intrinsic: SVGDocument.Layout, into base: UnsafeMutablePointer<UInt8>,
        width: Int, height: Int
    ) throws(WebImageError) {
        guard
            let surface = cairo_image_surface_create_for_data(
                base, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(width * 4))
        else { throw WebImageError(.tooLarge, "cairo cannot make a \(width)x\(height) surface") }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let context = cairo_create(surface) else {
            throw WebImageError(.tooLarge, "cairo cannot make a \(width)x\(height) surface")
        }
        defer { cairo_destroy(context) }
        // The document is laid out at its own size, then scaled, and moved so that its layout's corner is the
        // render's: a document without a viewBox does not scale to its viewport, so the scale is cairo's.
        cairo_scale(context, Double(width) / intrinsic.width, Double(height) / intrinsic.height)
        cairo_translate(context, -intrinsic.x, -intrinsic.y)
        var viewport = RsvgRectangle(x: 0, y: 0, width: intrinsic.width, height: intrinsic.height)
        var error: UnsafeMutablePointer<GError>?
        guard rsvg_handle_render_document(document.rsvgHandle, context, &viewport, &error) != 0 else {
            throw SVGDocument.error(error, "the SVG cannot be rendered")
        }
        cairo_surface_flush(surface)
        guard cairo_status(context) == CAIRO_STATUS_SUCCESS else {
            throw WebImageError(.corruptData, "cairo failed while rendering the SVG")
        }
    }

    /// Cairo's premultiplied ARGB in native (little-endian: B, G, R, A) order to straight R, G, B, A, in place.
    private static func unpremultiply(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        var index = 0
        while index < buffer.count {
            let blue = UInt32(buffer[index])
            let green = UInt32(buffer[index + 1])
            let red = UInt32(buffer[index + 2])
            let alpha = UInt32(buffer[index + 3])
            switch alpha {
            case 0:
                buffer[index] = 0
                buffer[index + 1] = 0
                buffer[index + 2] = 0
            case 255:
                buffer[index] = UInt8(red)
                buffer[index + 2] = UInt8(blue)
            default:
                let half = alpha / 2
                buffer[index] = UInt8(min(255, (red * 255 + half) / alpha))
                buffer[index + 1] = UInt8(min(255, (green * 255 + half) / alpha))
                buffer[index + 2] = UInt8(min(255, (blue * 255 + half) / alpha))
            }
            index += 4
        }
    }
}
