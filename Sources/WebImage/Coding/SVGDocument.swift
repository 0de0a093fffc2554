import CRSVG
import Foundation

/// One parsed SVG document: a librsvg handle made for one call and released with it.
///
/// The handle is loaded from memory with no base file or URL, so librsvg resolves no reference outside the bytes:
/// its URL policy loads a relative or absolute `file:`/`http:` reference (an `<image>`, a `<use>` of another file,
/// an XInclude, a CSS `@import`) only from beside the base file, and there is none; `data:` URLs are the exception
/// and stay inside the bytes. libxml2 runs without network access and without loading external DTDs, and within
/// its default safety limits (librsvg's `RSVG_HANDLE_FLAG_UNLIMITED` is never set).
final class SVGDocument {
    /// The CSS pixel density: lengths in `cm`, `mm`, `in`, `pt`, `pc` become pixels at 96 per inch, as in browsers
    /// and imgproxy.
    static let dpi = 96.0
    /// The size of a document that says nothing of its size and draws nothing.
    static let fallbackSize = 100.0

    private let handle: OpaquePointer

    /// Parses `bytes`; a document librsvg does not accept is ``WebImageError/Code/corruptData``.
    init(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        SVGDocument.silenceLogs
        wi_rsvg_silence_xml_errors()
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw WebImageError(.truncatedData, "no bytes: the SVG is empty")
        }
        var error: UnsafeMutablePointer<GError>?
        let made = rsvg_handle_new_from_data(base.assumingMemoryBound(to: guint8.self), gsize(bytes.count), &error)
        guard let made else { throw Self.error(error, "the SVG cannot be parsed") }
        handle = OpaquePointer(made)
        rsvg_handle_set_dpi(rsvgHandle, Self.dpi)
    }

    deinit { g_object_unref(gpointer(handle)) }

    var rsvgHandle: UnsafeMutablePointer<RsvgHandle> { UnsafeMutablePointer(handle) }

    /// Where and how large a document is drawn, in CSS pixels: the rectangle of its own coordinates that the render
    /// shows.
    struct Layout: Sendable {
        var x = 0.0
        var y = 0.0
        var width: Double
        var height: Double
    }

    /// The size the document gives itself: its `width` and `height` when both are absolute lengths, else its
    /// `viewBox`'s size, else the bounds of what it draws (as `rsvg-convert` sizes such a document), else
    /// ``fallbackSize`` square.
    func layout() throws(WebImageError) -> Layout {
        var width = 0.0
        var height = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(rsvgHandle, &width, &height) != 0, width > 0, height > 0 {
            return try Self.checked(Layout(width: width, height: height))
        }
        var hasWidth: gboolean = 0
        var hasHeight: gboolean = 0
        var hasViewBox: gboolean = 0
        var declaredWidth = RsvgLength()
        var declaredHeight = RsvgLength()
        var viewBox = RsvgRectangle()
        rsvg_handle_get_intrinsic_dimensions(
            rsvgHandle, &hasWidth, &declaredWidth, &hasHeight, &declaredHeight, &hasViewBox, &viewBox)
        // An absolute width or height that is not a positive size is an error, as rsvg-convert has it.
        for (has, length) in [(hasWidth, declaredWidth), (hasHeight, declaredHeight)]
        where has != 0 && length.unit != RSVG_UNIT_PERCENT {
            guard length.length.isFinite, length.length > 0 else {
                throw WebImageError(.corruptData, "the SVG declares an unusable size")
            }
            guard length.length < 1e9 else {
                throw WebImageError(.tooLarge, "the SVG declares a size of \(length.length)")
            }
        }
        if hasViewBox != 0, viewBox.width > 0, viewBox.height > 0 {
            return try Self.checked(Layout(width: viewBox.width, height: viewBox.height))
        }
        var viewport = RsvgRectangle(x: 0, y: 0, width: Self.fallbackSize, height: Self.fallbackSize)
        var ink = RsvgRectangle()
        var error: UnsafeMutablePointer<GError>?
        guard rsvg_handle_get_geometry_for_layer(rsvgHandle, nil, &viewport, &ink, nil, &error) != 0 else {
            throw Self.error(error, "the SVG's drawing cannot be measured")
        }
        guard ink.x.isFinite, ink.y.isFinite, ink.width.isFinite, ink.height.isFinite, ink.width >= 1,
            ink.height >= 1
        else {
            return Layout(width: Self.fallbackSize, height: Self.fallbackSize)
        }
        return try Self.checked(Layout(x: ink.x, y: ink.y, width: ink.width, height: ink.height))
    }

    private static func checked(_ layout: Layout) throws(WebImageError) -> Layout {
        let (width, height) = (layout.width, layout.height)
        guard width.isFinite, height.isFinite, width > 0, height > 0 else {
            throw WebImageError(.corruptData, "the SVG declares an unusable size \(width)x\(height)")
        }
        guard width < 1e9, height < 1e9 else {
            throw WebImageError(.tooLarge, "the SVG declares a size of \(width)x\(height) pixels")
        }
        return layout
    }

    /// A typed error from librsvg's `GError`, freed here.
    static func error(_ error: UnsafeMutablePointer<GError>?, _ context: String) -> WebImageError {
        guard let error else { return WebImageError(.corruptData, context) }
        defer { g_error_free(error) }
        // libxml2's messages end in a newline and may hold more: the error is one line.
        let message = (error.pointee.message.map { String(cString: $0) } ?? "no message")
            .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return WebImageError(.corruptData, "\(context): \(message)")
    }

    /// Installs, once per process, the handlers that keep librsvg's, GLib's and libxml2's messages off stderr.
    private static let silenceLogs: Void = wi_rsvg_silence_logs()
}
