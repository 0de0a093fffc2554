import CTIFF
import Foundation

/// Writes TIFF files with libtiff, in memory: one page of 8-bit RGB, or RGBA with unassociated alpha
/// (`ExtraSamples` 2) when the image has transparency; Deflate compression with horizontal differencing, in strips
/// of about 8 KB, little-endian. A frame with 16-bit pixels (``ImageFrame/deepPixels``) is written with 16-bit
/// samples: grey (`MINISBLACK`, with alpha when it has transparency) when every pixel is grey, else RGB or RGBA.
///
/// The first frame of an animation is written. With ``EncodingOptions/embedsColorProfile`` an image's ICC profile
/// is embedded (`InterColorProfile`); otherwise the pixels are converted to sRGB and no profile is written. The XMP
/// packet and the IPTC datasets are written as libvips writes them (`XMLPacket`, `RichTIFFIPTC`); EXIF is not (nor
/// by libvips).
enum TIFFEncoder {
    /// The TIFF bytes of `image`'s first frame.
    static func encode(_ image: Image, options: EncodingOptions) throws(WebImageError) -> Data {
        var firstFrame = options
        firstFrame.firstFrameOnly = true
        let color = EncodingColor(image, options: firstFrame)
        let pixels = color.frames[0].pixels
        let deep = color.frames[0].deepPixels
        let grey = deep?.isGrey ?? false
        let samples = (grey ? 1 : 3) + ((deep?.isOpaque ?? pixels.isOpaque) ? 0 : 1)
        let sampleBytes = deep == nil ? 1 : 2
        // Classic TIFF offsets are 32-bit: the uncompressed pixels must fit, whatever Deflate makes of them.
        guard pixels.bytes.count * sampleBytes < Int(UInt32.max) / 2 else {
            throw WebImageError(.encodingFailed, "\(pixels.width)x\(pixels.height) is too large for a TIFF file")
        }
        let stream = TIFFStream()
        guard let handle = stream.open(mode: "w", maxAllocation: pixels.bytesPerRow * sampleBytes * 16 + (1 << 20))
        else {
            throw WebImageError(.encodingFailed, "libtiff did not start: \(stream.message ?? "no memory")")
        }
        var written = true
        func set(_ tag: Int32, _ value: Int) {
            written = written && wi_tiff_set_uint16(handle, UInt32(tag), UInt16(value)) == 1
        }
        written = wi_tiff_set_uint32(handle, UInt32(TIFFTAG_IMAGEWIDTH), UInt32(pixels.width)) == 1
        written = written && wi_tiff_set_uint32(handle, UInt32(TIFFTAG_IMAGELENGTH), UInt32(pixels.height)) == 1
        set(TIFFTAG_BITSPERSAMPLE, sampleBytes * 8)
        set(TIFFTAG_SAMPLESPERPIXEL, samples)
        set(TIFFTAG_PHOTOMETRIC, Int(grey ? PHOTOMETRIC_MINISBLACK : PHOTOMETRIC_RGB))
        set(TIFFTAG_PLANARCONFIG, Int(PLANARCONFIG_CONTIG))
        set(TIFFTAG_COMPRESSION, Int(COMPRESSION_ADOBE_DEFLATE))
        set(TIFFTAG_PREDICTOR, Int(PREDICTOR_HORIZONTAL))
        let rowsPerStrip = TIFFDefaultStripSize(handle, 0)
        written = written && wi_tiff_set_uint32(handle, UInt32(TIFFTAG_ROWSPERSTRIP), rowsPerStrip) == 1
        if samples == 4 || (grey && samples == 2) {
            var unassociated = UInt16(EXTRASAMPLE_UNASSALPHA)
            written = written && wi_tiff_set_extra_samples(handle, 1, &unassociated) == 1
        }
        if let profile = color.profile, let count = UInt32(exactly: profile.count) {
            written = written && profile.withUnsafeBytes { wi_tiff_set_icc_profile(handle, count, $0.baseAddress) } == 1
        }
        written = written && TIFFMetadata.write(xmp: color.xmp, iptc: color.iptc, to: handle)
        let rows = deep.map {
            writeRows($0, channels: (grey ? [0] : [0, 1, 2]) + (samples % 2 == 0 ? [3] : []), to: handle)
        }
        written = written && (rows ?? writeRows(pixels, samples: samples, to: handle)) && TIFFFlush(handle) == 1
        TIFFClose(handle)
        guard written else {
            throw WebImageError(.encodingFailed, "TIFF encoding failed: \(stream.message ?? "a field was refused")")
        }
        return Data(stream.output)
    }

    /// Writes each row as RGB or RGBA samples; `false` when libtiff fails.
    private static func writeRows(_ pixels: PixelBuffer, samples: Int, to handle: OpaquePointer) -> Bool {
        var row = [UInt8](repeating: 0, count: pixels.width * samples)
        return pixels.bytes.withUnsafeBufferPointer { source in
            for y in 0..<pixels.height {
                var from = y * pixels.bytesPerRow
                for to in stride(from: 0, to: row.count, by: samples) {
                    for channel in 0..<samples { row[to + channel] = source[from + channel] }
                    from += 4
                }
                guard TIFFWriteScanline(handle, &row, UInt32(y), 0) == 1 else { return false }
            }
            return true
        }
    }

    /// Writes the `channels` of each 16-bit pixel, in the host's byte order (libtiff writes the file in it).
    private static func writeRows(_ pixels: PixelBuffer16, channels: [Int], to handle: OpaquePointer) -> Bool {
        var row = [UInt16](repeating: 0, count: pixels.width * channels.count)
        return pixels.samples.withUnsafeBufferPointer { source in
            for y in 0..<pixels.height {
                var from = y * pixels.samplesPerRow
                var to = 0
                for _ in 0..<pixels.width {
                    for channel in channels {
                        row[to] = source[from + channel]
                        to += 1
                    }
                    from += 4
                }
                guard TIFFWriteScanline(handle, &row, UInt32(y), 0) == 1 else { return false }
            }
            return true
        }
    }
}
