extension PixelBuffer {
    /// The pixels turned upright from stored `orientation`: the rotations and mirrorings of EXIF values 1 to 8.
    ///
    /// Returns `self` unchanged (no copy) for ``ImageOrientation/up``.
    public func oriented(from orientation: ImageOrientation) -> PixelBuffer {
        guard orientation != .up else { return self }
        let (w, h) = (width, height)
        let (outWidth, outHeight) = orientation.swapsDimensions ? (h, w) : (w, h)
        // For output row y, the source pixel of output column x is at base(y) + x * step (in pixels).
        let step: Int
        let base: (Int) -> Int
        switch orientation.rawValue {
        case 2: step = -1; base = { $0 * w + w - 1 }
        case 3: step = -1; base = { (h - 1 - $0) * w + w - 1 }
        case 4: step = 1; base = { (h - 1 - $0) * w }
        case 5: step = w; base = { $0 }
        case 6: step = -w; base = { (h - 1) * w + $0 }
        case 7: step = -w; base = { (h - 1) * w + w - 1 - $0 }
        default: step = w; base = { w - 1 - $0 }
        }
        return bytes.withUnsafeBytes { source in
            let sourcePixels = source.bindMemory(to: UInt32.self)
            return PixelBuffer(width: outWidth, height: outHeight) { output in
                UnsafeMutableRawBufferPointer(output).withMemoryRebound(to: UInt32.self) { outputPixels in
                    for y in 0..<outHeight {
                        var index = base(y)
                        let row = y * outWidth
                        for x in 0..<outWidth {
                            outputPixels[row + x] = sourcePixels[index]
                            index += step
                        }
                    }
                }
            }
        }
    }
}
