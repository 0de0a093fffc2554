extension ImageOrientation {
    /// Copies the pixels of `source`, `width` by `height` stored in this orientation, upright into `output` (its
    /// width and height swapped when ``swapsDimensions``): the one walk of EXIF's rotations and mirrorings that
    /// ``PixelBuffer`` (a pixel a `UInt32`) and ``PixelBuffer16`` (a `UInt64`) share. Inlined, so each caller gets
    /// the loop for its own pixel type.
    @inline(__always)
    func turn<Pixel>(
        _ source: UnsafeBufferPointer<Pixel>, width: Int, height: Int, into output: UnsafeMutableBufferPointer<Pixel>
    ) {
        let (w, h) = (width, height)
        let (outWidth, outHeight) = swapsDimensions ? (h, w) : (w, h)
        // Output row y starts at source pixel start + y * rowStep; each next output pixel is `step` further on.
        let (start, rowStep, step): (Int, Int, Int)
        switch rawValue {
        case 1: (start, rowStep, step) = (0, w, 1)
        case 2: (start, rowStep, step) = (w - 1, w, -1)
        case 3: (start, rowStep, step) = ((h - 1) * w + w - 1, -w, -1)
        case 4: (start, rowStep, step) = ((h - 1) * w, -w, 1)
        case 5: (start, rowStep, step) = (0, 1, w)
        case 6: (start, rowStep, step) = ((h - 1) * w, 1, -w)
        case 7: (start, rowStep, step) = ((h - 1) * w + w - 1, -1, -w)
        default: (start, rowStep, step) = (w - 1, -1, w)
        }
        for y in 0..<outHeight {
            var index = start + y * rowStep
            let row = y * outWidth
            for x in 0..<outWidth {
                output[row + x] = source[index]
                index += step
            }
        }
    }
}
