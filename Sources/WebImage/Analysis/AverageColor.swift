extension PixelBuffer {
    /// The mean of each channel, alpha included, rounded to the nearest value.
    ///
    /// With `ignoringTransparent` (the default, as imgproxy's `average` info option), fully transparent pixels are
    /// left out: their colour channels are usually meaningless. When every pixel is left out, the answer is
    /// ``RGBA/clear``. Every pixel is read once; the sums cannot overflow for any buffer that fits in memory.
    public func averageColor(ignoringTransparent: Bool = true) -> RGBA {
        var sums = SIMD4<UInt64>()
        var count: UInt64 = 0
        bytes.withUnsafeBufferPointer { bytes in
            var index = 0
            while index < bytes.count {
                let alpha = bytes[index + 3]
                if !ignoringTransparent || alpha != 0 {
                    sums &+= SIMD4(
                        UInt64(bytes[index]), UInt64(bytes[index + 1]), UInt64(bytes[index + 2]), UInt64(alpha))
                    count &+= 1
                }
                index += 4
            }
        }
        guard count > 0 else { return .clear }
        func mean(_ sum: UInt64) -> UInt8 { UInt8((sum + count / 2) / count) }
        return RGBA(red: mean(sums.x), green: mean(sums.y), blue: mean(sums.z), alpha: mean(sums.w))
    }
}
