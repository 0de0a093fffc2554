import Foundation
import WebImage

/// The sample images of `webimage demo`, encoded in memory when it starts, so that the demo needs no files beside
/// the executable: each format, an EXIF rotation, animations, alpha and a wide-gamut JPEG.
enum DemoSamples {
    /// A sample made and ready to serve.
    struct Sample: Sendable {
        /// The file name it is served under.
        let name: String
        /// Its `Content-Type`, sniffed from the bytes.
        let contentType: String
        /// The encoded image.
        let data: Data
    }

    /// A sample that could not be made here, and why.
    struct Missing {
        /// The file name it would have had.
        let name: String
        /// Why there are no bytes.
        let reason: String
    }

    /// A sample's name and how to encode it.
    private struct Recipe: Sendable {
        let name: String
        let make: @Sendable () throws -> Data
    }

    /// Makes every sample; an encoder that fails (a codec library built without its encoder, libheif without its
    /// x265 plugin) leaves its sample among the missing ones.
    static func make() -> (samples: [Sample], missing: [Missing]) {
        var samples: [Sample] = []
        var missing: [Missing] = []
        for recipe in recipes {
            do {
                let data = try recipe.make()
                samples.append(Sample(name: recipe.name, contentType: ImageFormat.sniff(data).mimeType, data: data))
            } catch {
                missing.append(Missing(name: recipe.name, reason: "\(error)"))
            }
        }
        return (samples, missing)
    }

    /// The samples, in the order the demo loads them.
    private static let recipes: [Recipe] = [
        Recipe(name: "baseline.jpg") { try encode(DemoPixels.picture(width: 640, height: 480), as: .jpeg) },
        Recipe(name: "progressive.jpg") {
            try DemoJPEG.encode(DemoPixels.picture(width: 640, height: 480, phase: 0.6), as: .progressive)
        },
        // Decoded with shrink-on-load: TurboJPEG decodes it at 1/8 scale, never the full 12 MP.
        Recipe(name: "large_12mp.jpg") { try encode(DemoPixels.large(width: 4000, height: 3000), as: .jpeg) },
        Recipe(name: "cmyk.jpg") { try DemoJPEG.encode(DemoPixels.picture(width: 480, height: 360), as: .cmyk) },
        Recipe(name: "gray.jpg") { try DemoJPEG.encode(DemoPixels.picture(width: 480, height: 360), as: .gray) },
        // Stored 360x480 and turned upright (480x360) by the decoder.
        Recipe(name: "exif_orientation_6.jpg") {
            let stored = DemoPixels.picture(width: 480, height: 360).oriented(from: .left)
            let image = Image(frames: [ImageFrame(pixels: stored)], exif: DemoJPEG.exif(orientation: .right))
            return try encode(image, as: .jpeg, options: EncodingOptions(quality: 85, embedsMetadata: true))
        },
        Recipe(name: "alpha.png") { try encode(DemoPixels.picture(width: 400, height: 400, alpha: true), as: .png) },
        // Smaller than the thumbnail box: kept at its size, not enlarged.
        Recipe(name: "small_alpha.png") {
            try encode(DemoPixels.picture(width: 32, height: 32, alpha: true), as: .png)
        },
        Recipe(name: "still.gif") { try encode(DemoPixels.picture(width: 320, height: 240), as: .gif) },
        Recipe(name: "anim.gif") { try encode(DemoPixels.animation(width: 160, height: 120), as: .gif) },
        Recipe(name: "anim.png") { try encode(DemoPixels.animation(width: 160, height: 120, alpha: true), as: .png) },
        Recipe(name: "anim.webp") {
            try encode(DemoPixels.animation(width: 160, height: 120, alpha: true), as: .webp)
        },
        Recipe(name: "lossy.webp") { try encode(DemoPixels.picture(width: 480, height: 360), as: .webp) },
        Recipe(name: "lossless.webp") {
            try encode(
                DemoPixels.picture(width: 256, height: 256), as: .webp, options: EncodingOptions(lossless: true))
        },
        Recipe(name: "lossy_alpha.webp") {
            try encode(DemoPixels.picture(width: 400, height: 300, alpha: true), as: .webp)
        },
        Recipe(name: "alpha.avif") {
            try encode(DemoPixels.picture(width: 256, height: 256, alpha: true), as: .avif)
        },
        Recipe(name: "anim.avif") { try encode(DemoPixels.animation(width: 128, height: 96, frames: 6), as: .avif) },
        Recipe(name: "photo.heic") { try encode(DemoPixels.picture(width: 480, height: 360, phase: 0.3), as: .heic) },
        Recipe(name: "alpha.jxl") {
            try encode(DemoPixels.picture(width: 320, height: 240, phase: 0.4, alpha: true), as: .jxl)
        },
        // Saturated Display P3 colours with the profile embedded; the decoder converts them to sRGB.
        Recipe(name: "display_p3.jpg") {
            let pixels = DemoPixels.picture(width: 480, height: 360, phase: 0.8)
            let image = Image(frames: [ImageFrame(pixels: pixels)], colorProfile: try DemoJPEG.displayP3Profile())
            return try encode(image, as: .jpeg, options: EncodingOptions(quality: 85, embedsColorProfile: true))
        },
    ]

    private static func encode(
        _ pixels: PixelBuffer, as format: ImageFormat, options: EncodingOptions = EncodingOptions(quality: 85)
    ) throws(WebImageError) -> Data {
        try encode(Image(pixels: pixels), as: format, options: options)
    }

    private static func encode(
        _ image: Image, as format: ImageFormat, options: EncodingOptions = EncodingOptions(quality: 85)
    ) throws(WebImageError) -> Data {
        try ImageCoders.default.encode(image, as: format, options: options)
    }
}
