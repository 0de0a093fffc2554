extension PixelBuffer {
    /// The pixels turned upright from stored `orientation`: the rotations and mirrorings of EXIF values 1 to 8.
    ///
    /// Returns `self` unchanged (no copy) for ``ImageOrientation/up``.
    public func oriented(from orientation: ImageOrientation) -> PixelBuffer {
        guard orientation != .up else { return self }
        let (outWidth, outHeight) = orientation.swapsDimensions ? (height, width) : (width, height)
        return bytes.withUnsafeBytes { source in
            PixelBuffer(width: outWidth, height: outHeight) { output in
                UnsafeMutableRawBufferPointer(output).withMemoryRebound(to: UInt32.self) { pixels in
                    orientation.turn(source.bindMemory(to: UInt32.self), width: width, height: height, into: pixels)
                }
            }
        }
    }
}
