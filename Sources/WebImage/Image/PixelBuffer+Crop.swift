extension PixelBuffer {
    /// The pixels inside `rect`, which must lie within the buffer; `self` when `rect` is the whole buffer.
    public func cropped(to rect: PixelRect) -> PixelBuffer {
        precondition(
            rect.x >= 0 && rect.y >= 0 && rect.width > 0 && rect.height > 0 && rect.x + rect.width <= width
                && rect.y + rect.height <= height, "crop rectangle outside the image")
        if rect.size == size { return self }
        return bytes.withUnsafeBufferPointer { source in
            PixelBuffer(width: rect.width, height: rect.height) { output in
                let rowBytes = rect.width * 4
                for row in 0..<rect.height {
                    let from = ((rect.y + row) * width + rect.x) * 4
                    UnsafeMutableRawBufferPointer(
                        rebasing: UnsafeMutableRawBufferPointer(output)[(row * rowBytes)...].prefix(rowBytes)
                    )
                    .copyMemory(
                        from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(source)[from...].prefix(rowBytes))
                    )
                }
            }
        }
    }
}
