import Foundation
import WebImage

extension ImageProcessor {
    /// The formats whose size a lower quality shrinks (imgproxy's `SupportsQuality`).
    static let qualityFormats: Set<ImageFormat> = [.jpeg, .webp, .avif, .heic]

    /// `image` encoded as `format`; with `maxBytes` above 0 and a format with a quality, encoded again at lower
    /// qualities until the result fits, as imgproxy's `saveImageToFitBytes`: each step scales the quality by 0.25,
    /// 0.5 or 0.75 as the result is more than 3, more than 1.5 or at most 1.5 times too large, always lowering it
    /// by at least 1; the result at quality 10 or below is kept whatever its size.
    func encode(
        _ image: Image, as format: ImageFormat, options: EncodingOptions, maxBytes: Int
    ) throws(ImageServerError) -> Data {
        var encoding = options
        while true {
            let data = try Self.library { () throws(WebImageError) in
                try coders.encode(image, as: format, options: encoding)
            }
            guard maxBytes > 0, Self.qualityFormats.contains(format), data.count > maxBytes, encoding.quality > 10
            else { return data }
            encoding.quality = Self.nextQuality(encoding.quality, size: data.count, target: maxBytes)
        }
    }

    /// The quality of the next attempt after one at `quality` gave `size` bytes for `target`.
    static func nextQuality(_ quality: Int, size: Int, target: Int) -> Int {
        let delta = Double(size) / Double(max(1, target))
        let factor = delta > 3 ? 0.25 : delta > 1.5 ? 0.5 : 0.75
        let scaled = Int((Double(quality) * factor).rounded())
        return max(1, min(quality - 1, scaled))
    }
}
