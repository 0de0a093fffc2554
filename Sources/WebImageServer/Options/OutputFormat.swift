import WebImage

/// The image formats a URL may name (imgproxy's format names), and what the server can write.
enum OutputFormat {
    /// imgproxy's format names and the format each names.
    static let byName: [String: ImageFormat] = [
        "jpg": .jpeg, "jpeg": .jpeg, "png": .png, "webp": .webp, "gif": .gif, "avif": .avif, "bmp": .bmp,
        "ico": .ico, "svg": .svg, "heic": .heic, "tiff": .tiff, "jxl": .jxl,
    ]

    /// The format named `name`, or a 404 naming it.
    static func named(_ name: String, option: String) throws(ImageServerError) -> ImageFormat {
        guard let format = byName[name.lowercased()] else {
            throw .argument(option, name, "a supported image format")
        }
        return format
    }
}
