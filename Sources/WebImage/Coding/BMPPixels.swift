/// Unpacks the pixels of a BMP bitmap to RGBA, top row first.
enum BMPPixels {
    /// The pixels of `header`'s bitmap in `bytes`, decoded after `limits` are checked; and whether they carry
    /// transparency of their own (an alpha channel with some non-zero value, or runs that skip pixels).
    ///
    /// Uncompressed rows must all be there, padding included. An alpha channel whose every value is 0 is taken as
    /// absent and the pixels as opaque, as browsers take it: many 32-bit `BI_RGB` files leave the fourth byte zero.
    static func decode(
        _ header: BMPHeader, _ bytes: UnsafeRawBufferPointer, limits: DecodingLimits
    ) throws(WebImageError) -> (pixels: [UInt8], hasAlpha: Bool) {
        try limits.checkFrame(width: header.width, height: header.height)
        guard header.pixelOffset <= bytes.count else { throw BMPHeader.truncated("the pixels") }
        let data = UnsafeRawBufferPointer(rebasing: bytes[header.pixelOffset...])
        if header.storage != .runLength {
            let (size, overflow) = header.stride.multipliedReportingOverflow(by: header.height)
            guard !overflow, size <= data.count else { throw BMPHeader.truncated("the pixels") }
        }
        var pixels = [UInt8](repeating: 0, count: header.width * header.height * 4)
        let hasAlpha = try pixels.withUnsafeMutableBufferPointer { output throws(WebImageError) -> Bool in
            switch header.storage {
            case .runLength:
                try BMPRunLength.decode(header, data, into: output)
                return true
            case .indexed:
                try indexed(header, data, into: output)
                return false
            case .bgr:
                bgr(header, data, into: output)
                return false
            case .masked(let masks):
                masked(header, masks, data, into: output)
                return masks.alpha.bits > 0 && !opaqueIfAlphaIsZero(output)
            }
        }
        return (pixels, hasAlpha)
    }

    /// Writes `color` at byte `index` of `output`.
    @inline(__always)
    static func put(_ color: RGBA, _ output: UnsafeMutableBufferPointer<UInt8>, at index: Int) {
        output[index] = color.red
        output[index + 1] = color.green
        output[index + 2] = color.blue
        output[index + 3] = color.alpha
    }

    /// The colour of palette index `index`, or an error when the palette has no such entry.
    @inline(__always)
    static func color(_ index: Int, in palette: [RGBA]) throws(WebImageError) -> RGBA {
        guard index < palette.count else {
            throw BMPHeader.corrupt("palette index \(index) in a palette of \(palette.count) colours")
        }
        return palette[index]
    }

    private static func indexed(
        _ header: BMPHeader, _ data: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>
    ) throws(WebImageError) {
        let bits = header.bitCount
        let perByte = 8 / bits
        let valueMask = (1 << bits) - 1
        for row in 0..<header.height {
            let source = row * header.stride
            var target = header.outputRow(row) * header.width * 4
            for x in 0..<header.width {
                let byte = Int(data[source + x / perByte])
                let index = (byte >> (8 - bits * (x % perByte + 1))) & valueMask
                put(try color(index, in: header.palette), output, at: target)
                target += 4
            }
        }
    }

    private static func bgr(
        _ header: BMPHeader, _ data: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>
    ) {
        for row in 0..<header.height {
            var source = row * header.stride
            var target = header.outputRow(row) * header.width * 4
            for _ in 0..<header.width {
                output[target] = data[source + 2]
                output[target + 1] = data[source + 1]
                output[target + 2] = data[source]
                output[target + 3] = 255
                source += 3
                target += 4
            }
        }
    }

    private static func masked(
        _ header: BMPHeader, _ masks: BMPMasks, _ data: UnsafeRawBufferPointer,
        into output: UnsafeMutableBufferPointer<UInt8>
    ) {
        if header.bitCount == 32, let offsets = byteOffsets(masks) {
            shuffled(header, offsets, data, into: output)
            return
        }
        let wide = header.bitCount == 32
        for row in 0..<header.height {
            var source = row * header.stride
            var target = header.outputRow(row) * header.width * 4
            for _ in 0..<header.width {
                let pixel = wide ? data.littleUInt32(at: source) : UInt32(data.littleUInt16(at: source))
                output[target] = masks.red.value(pixel)
                output[target + 1] = masks.green.value(pixel)
                output[target + 2] = masks.blue.value(pixel)
                output[target + 3] = masks.alpha.value(pixel)
                source += wide ? 4 : 2
                target += 4
            }
        }
    }

    /// Where red, green, blue and alpha are in the 4 bytes of a 32-bit pixel when each is one whole byte (BGRA, BGRX,
    /// RGBA…: nearly every 32-bit BMP), alpha `nil` when absent; `nil` for other masks.
    private static func byteOffsets(_ masks: BMPMasks) -> (red: Int, green: Int, blue: Int, alpha: Int?)? {
        func offset(_ channel: BMPChannel) -> Int? {
            channel.bits == 8 && channel.shift % 8 == 0 ? Int(channel.shift / 8) : nil
        }
        guard let red = offset(masks.red), let green = offset(masks.green), let blue = offset(masks.blue) else {
            return nil
        }
        if masks.alpha.bits == 0 { return (red, green, blue, nil) }
        guard let alpha = offset(masks.alpha) else { return nil }
        return (red, green, blue, alpha)
    }

    /// 32-bit pixels whose channels are whole bytes, copied byte by byte (the rows were checked to be in `data`).
    private static func shuffled(
        _ header: BMPHeader, _ offsets: (red: Int, green: Int, blue: Int, alpha: Int?),
        _ data: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>
    ) {
        guard let input = data.baseAddress?.assumingMemoryBound(to: UInt8.self), let base = output.baseAddress
        else { return }
        let (red, green, blue) = (offsets.red, offsets.green, offsets.blue)
        for row in 0..<header.height {
            var source = input + row * header.stride
            var target = base + header.outputRow(row) * header.width * 4
            if let alpha = offsets.alpha {
                for _ in 0..<header.width {
                    (target[0], target[1]) = (source[red], source[green])
                    (target[2], target[3]) = (source[blue], source[alpha])
                    source += 4
                    target += 4
                }
            } else {
                for _ in 0..<header.width {
                    (target[0], target[1]) = (source[red], source[green])
                    (target[2], target[3]) = (source[blue], 255)
                    source += 4
                    target += 4
                }
            }
        }
    }

    /// Makes every pixel opaque when every alpha value is 0, and says whether it did.
    private static func opaqueIfAlphaIsZero(_ output: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        for index in stride(from: 3, to: output.count, by: 4) where output[index] != 0 { return false }
        for index in stride(from: 3, to: output.count, by: 4) { output[index] = 255 }
        return true
    }
}
