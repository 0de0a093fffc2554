/// Converts CMYK samples, as libjpeg returns them, to RGBA without a colour profile.
enum CMYKConverter {
    /// Rewrites 4-byte CMYK pixels in `pixels` as opaque RGBA.
    ///
    /// Adobe applications store CMYK JPEGs inverted (0 means full ink); `inverted` says the samples are so.
    static func convertInPlace(_ pixels: UnsafeMutableBufferPointer<UInt8>, inverted: Bool) {
        var index = 0
        while index + 3 < pixels.count {
            var (c, m, y, k) = (
                Int(pixels[index]), Int(pixels[index + 1]), Int(pixels[index + 2]), Int(pixels[index + 3])
            )
            if !inverted { (c, m, y, k) = (255 - c, 255 - m, 255 - y, 255 - k) }
            pixels[index] = UInt8((c * k + 127) / 255)
            pixels[index + 1] = UInt8((m * k + 127) / 255)
            pixels[index + 2] = UInt8((y * k + 127) / 255)
            pixels[index + 3] = 255
            index += 4
        }
    }
}
