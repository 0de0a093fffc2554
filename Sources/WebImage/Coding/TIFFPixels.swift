import CTIFF
import Foundation

/// Reads the first page of a ``TIFFFile`` as RGBA, in stored orientation, converted to sRGB as `color` says.
///
/// 8-bit interleaved grey, RGB and CMYK (``TIFFFile/isChunky8Bit``) are read strip by strip or tile by tile straight
/// into a sample buffer: associated alpha is divided out exactly, unassociated alpha copied, and CMYK goes through its
/// ICC profile when it has one. Every other layout (1- to 16-bit, palettes, YCbCr, planes, Lab, LogLuv) goes through
/// libtiff's `TIFFReadRGBAImageOriented`, whose output is premultiplied whatever the file's alpha, and is divided.
enum TIFFPixels {
    /// The pixels of `file`'s current directory, checked against `limits` before anything is allocated.
    static func decode(
        _ file: TIFFFile, limits: DecodingLimits, options: DecodingOptions
    ) throws(WebImageError) -> (pixels: PixelBuffer, color: ColorHandling) {
        try limits.checkFrame(width: file.width, height: file.height)
        let isCMYK = file.photometric == Int(PHOTOMETRIC_SEPARATED)
        let isGrey = file.photometric == Int(PHOTOMETRIC_MINISBLACK) || file.photometric == Int(PHOTOMETRIC_MINISWHITE)
        if file.isChunky8Bit {
            let samples = try readSamples(file)
            let color = ColorHandling(
                profile: file.profile, source: isCMYK ? .cmyk : isGrey ? .grey : .rgba, options: options)
            let pixels = PixelBuffer(width: file.width, height: file.height) { output in
                expand(samples, of: file, into: output)
                if file.alpha == .associated { unpremultiply(output) }
                if isCMYK, color.transform == nil {
                    CMYKConverter.convertInPlace(output, inverted: false)
                } else {
                    color.apply(output)
                }
            }
            return (pixels, color)
        }
        // libtiff converts CMYK without its profile here: the profile cannot apply to the RGB it returns.
        let color = ColorHandling(
            profile: isCMYK ? nil : file.profile, source: isGrey ? .grey : .rgba, options: options)
        var status: Int32 = 0
        let pixels = PixelBuffer(width: file.width, height: file.height) { output in
            let raster = UnsafeMutableRawPointer(output.baseAddress!).assumingMemoryBound(to: UInt32.self)
            // Asking for the stored orientation reads rows as stored; ``TIFFCoder`` turns them.
            let stored = UInt16((1...8).contains(file.orientationTag) ? file.orientationTag : 1)
            status = TIFFReadRGBAImageOriented(
                file.handle, UInt32(file.width), UInt32(file.height), raster, Int32(stored), 1)
            guard status == 1 else { return }
            if file.alpha != .none { unpremultiply(output) }
            color.apply(output)
        }
        guard status == 1 else { throw file.stream.error("the TIFF image cannot be decoded") }
        return (pixels, color)
    }

    /// The samples of an interleaved image of `bytesPerSample` (1, or 2 for 16-bit samples in the host's byte order,
    /// as libtiff returns them), rows top to bottom as stored.
    static func readSamples(_ file: TIFFFile, bytesPerSample: Int = 1) throws(WebImageError) -> [UInt8] {
        let pixelBytes = file.samplesPerPixel * bytesPerSample
        let rowBytes = file.width * pixelBytes
        // Within the frame limits checked before (8 samples of 2 bytes per pixel at most).
        var samples = [UInt8](repeating: 0, count: rowBytes * file.height)
        let failed: Bool = samples.withUnsafeMutableBytes { output in
            TIFFIsTiled(file.handle) != 0
                ? readTiles(file, into: output, pixelBytes: pixelBytes)
                : readStrips(file, into: output, rowBytes: rowBytes)
        }
        guard !failed else { throw file.stream.error("the TIFF image data cannot be decoded") }
        return samples
    }

    /// Decodes each strip into its rows of `output`; `true` on failure.
    private static func readStrips(_ file: TIFFFile, into output: UnsafeMutableRawBufferPointer, rowBytes: Int) -> Bool
    {
        var value: UInt32 = 0
        wi_tiff_get_uint32(file.handle, UInt32(TIFFTAG_ROWSPERSTRIP), &value)
        let rowsPerStrip = value == 0 ? file.height : min(Int(value), file.height)
        let strips = (file.height + rowsPerStrip - 1) / rowsPerStrip
        guard strips <= Int(TIFFNumberOfStrips(file.handle)), TIFFScanlineSize(file.handle) == tmsize_t(rowBytes) else {
            return true
        }
        for strip in 0..<strips {
            let rows = min(rowsPerStrip, file.height - strip * rowsPerStrip)
            let start = output.baseAddress! + strip * rowsPerStrip * rowBytes
            let read = TIFFReadEncodedStrip(file.handle, UInt32(strip), start, tmsize_t(rows * rowBytes))
            guard read == tmsize_t(rows * rowBytes) else { return true }
        }
        return false
    }

    /// Decodes each tile and copies the part inside the image to `output`; `true` on failure.
    private static func readTiles(_ file: TIFFFile, into output: UnsafeMutableRawBufferPointer, pixelBytes: Int) -> Bool
    {
        let rowBytes = file.width * pixelBytes
        var tileWidth: UInt32 = 0, tileHeight: UInt32 = 0
        guard wi_tiff_get_uint32(file.handle, UInt32(TIFFTAG_TILEWIDTH), &tileWidth) == 1,
            wi_tiff_get_uint32(file.handle, UInt32(TIFFTAG_TILELENGTH), &tileHeight) == 1, tileWidth > 0, tileHeight > 0
        else { return true }
        let (tileColumns, tileRows) = (Int(tileWidth), Int(tileHeight))
        // The tile's size comes from the file, unbounded by the image's: a tiny image may name 4-billion-pixel tiles.
        // Its bytes must neither overflow nor exceed the image's own (or 16 MiB, for a small image in large tiles).
        let (tileRowBytes, rowOverflow) = tileColumns.multipliedReportingOverflow(by: pixelBytes)
        let (tileBytes, overflow) = tileRowBytes.multipliedReportingOverflow(by: tileRows)
        let tileSize = Int(TIFFTileSize(file.handle))
        guard !rowOverflow, !overflow, tileSize == tileBytes, tileSize <= max(output.count, 16 << 20) else {
            return true
        }
        let tile = UnsafeMutableRawBufferPointer.allocate(byteCount: tileSize, alignment: 16)
        defer { tile.deallocate() }
        for top in stride(from: 0, to: file.height, by: tileRows) {
            for left in stride(from: 0, to: file.width, by: tileColumns) {
                let index = TIFFComputeTile(file.handle, UInt32(left), UInt32(top), 0, 0)
                guard
                    TIFFReadEncodedTile(file.handle, index, tile.baseAddress, tmsize_t(tileSize)) == tmsize_t(tileSize)
                else {
                    return true
                }
                let copied = min(tileColumns, file.width - left) * pixelBytes
                for row in 0..<min(tileRows, file.height - top) {
                    let target = output.baseAddress! + (top + row) * rowBytes + left * pixelBytes
                    target.copyMemory(from: tile.baseAddress! + row * tileRowBytes, byteCount: copied)
                }
            }
        }
        return false
    }

    /// Spreads grey, RGB or CMYK samples (and alpha, when the file has it) over 4-byte pixels.
    private static func expand(_ samples: [UInt8], of file: TIFFFile, into output: UnsafeMutableBufferPointer<UInt8>) {
        let count = file.samplesPerPixel
        let colors =
            file.photometric == Int(PHOTOMETRIC_RGB) ? 3 : (file.photometric == Int(PHOTOMETRIC_SEPARATED) ? 4 : 1)
        let alphaIndex = file.alpha != .none && colors < 4 && count > colors ? colors : nil
        let inverted = file.photometric == Int(PHOTOMETRIC_MINISWHITE)
        samples.withUnsafeBufferPointer { input in
            var (from, to) = (0, 0)
            while to < output.count {
                if colors == 1 {
                    let grey = inverted ? 255 - input[from] : input[from]
                    (output[to], output[to + 1], output[to + 2]) = (grey, grey, grey)
                } else {
                    for channel in 0..<colors { output[to + channel] = input[from + channel] }
                }
                if colors < 4 { output[to + 3] = alphaIndex.map { input[from + $0] } ?? 255 }
                from += count
                to += 4
            }
        }
    }

    /// Divides the colour of premultiplied pixels by their alpha, rounding.
    private static func unpremultiply(_ bytes: UnsafeMutableBufferPointer<UInt8>) {
        for index in stride(from: 0, to: bytes.count, by: 4) {
            let alpha = Int(bytes[index + 3])
            guard alpha > 0, alpha < 255 else { continue }
            for channel in index..<(index + 3) {
                bytes[channel] = UInt8(min((Int(bytes[channel]) * 255 + alpha / 2) / alpha, 255))
            }
        }
    }
}
