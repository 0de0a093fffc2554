extension Image {
    /// This image with its pixels converted from ``colorProfile`` to sRGB, without a profile; `self` when there is no
    /// profile, or when it is equivalent to sRGB or unusable. A frame's 16-bit pixels (``ImageFrame/deepPixels``) are
    /// converted at 16 bits (lcms2), its 8-bit pixels then being their rounding.
    ///
    /// Meant for pipelines that decode with ``DecodingOptions/keepsColorProfile`` and shrink before converting: the
    /// conversion then costs a fraction of what it costs on the full decode (see `docs/benchmarks.md`).
    public func convertedToSRGB() -> Image {
        guard let profile = colorProfile, !profile.isEmpty else { return self }
        guard let transform = ColorTransforms.transform(for: profile, source: .rgba) else {
            return Image(
                frames: frames, loopCount: loopCount, format: format, scale: scale,
                sourceOrientation: sourceOrientation, isOpaque: isOpaque, exif: exif, xmp: xmp, iptc: iptc)
        }
        let converted = frames.map { frame in
            if let deep = frame.deepPixels, let wide = DeepColorConversion.converted(deep, from: profile) {
                return ImageFrame(deepPixels: wide, duration: frame.duration)
            }
            var bytes = frame.pixels.bytes
            bytes.withUnsafeMutableBufferPointer { transform.apply($0) }
            let pixels = PixelBuffer(width: frame.pixels.width, height: frame.pixels.height, bytes: bytes)
            return ImageFrame(pixels: pixels, duration: frame.duration)
        }
        return Image(
            frames: converted, loopCount: loopCount, format: format, scale: scale,
            sourceOrientation: sourceOrientation, isOpaque: isOpaque, exif: exif, xmp: xmp, iptc: iptc)
    }
}
