import Foundation

/// Decodes every frame of an animated PNG and composites them.
///
/// libspng reads only the default image, so each frame is rebuilt as a stand-alone PNG (the file's `IHDR` with the
/// frame's size, the chunks shared by all frames such as `PLTE` and `tRNS`, the frame's data as `IDAT`), decoded
/// with libspng, then drawn on an ``AnimationCanvas`` with the frame's blend and dispose operations.
struct APNGDecoder {
    let chunks: PNGChunks
    let options: DecodingOptions
    /// Whether libspng's chunk limits are lifted (``PNGCoder/isUnlimited``).
    let unlimited: Bool

    /// One frame's control fields (`fcTL`) and its compressed data.
    private struct Frame {
        var width = 0, height = 0, x = 0, y = 0
        var duration = 0.0
        var dispose: UInt8 = 0
        var blend: UInt8 = 0
        var data: [Data] = []
    }

    func decode() throws(WebImageError) -> Image {
        let header = try chunks.header()
        guard let control = chunks.animationControl(), control.frameCount > 0 else {
            throw WebImageError(.corruptData, "APNG without a valid acTL chunk")
        }
        try options.limits.checkAnimation(width: header.width, height: header.height, frames: control.frameCount)
        let frames = try parseFrames()
        guard !frames.isEmpty else { throw WebImageError(.corruptData, "APNG declares frames but has none") }
        var canvas = AnimationCanvas(width: header.width, height: header.height)
        var output: [ImageFrame] = []
        var keptProfile: Data?
        for (index, frame) in frames.enumerated() {
            guard let region = canvas.clip(x: frame.x, y: frame.y, width: frame.width, height: frame.height),
                region.x == frame.x, region.y == frame.y, region.width == frame.width, region.height == frame.height
            else { throw WebImageError(.corruptData, "APNG frame \(index) lies outside the canvas") }
            // Each stand-alone PNG carries the file's colour chunks (iCCP, sRGB, gAMA, cHRM), so frames convert.
            let (pixels, _, profile) = try PNGCoder.decodeStill(
                standalonePNG(for: frame), limits: options.limits, colorOptions: options, unlimited: unlimited)
            keptProfile = keptProfile ?? profile
            let saved = frame.dispose == 2 ? canvas.snapshot() : nil
            pixels.bytes.withUnsafeBufferPointer {
                canvas.draw($0, sourceWidth: frame.width, x: frame.x, y: frame.y, blend: frame.blend == 1)
            }
            output.append(ImageFrame(pixels: canvas.snapshot(), duration: frame.duration))
            if frame.dispose == 1 || (frame.dispose == 2 && index == 0) {
                canvas.clear(region)
            } else if let saved {
                canvas.restore(saved)
            }
        }
        return Image(frames: output, loopCount: control.playCount, format: .png, colorProfile: keptProfile)
    }

    /// The frames in order: each `fcTL` with the `IDAT` (default image) or `fdAT` chunks that follow it.
    private func parseFrames() throws(WebImageError) -> [Frame] {
        var frames: [Frame] = []
        for chunk in chunks.chunks {
            let payload = chunks.payload(chunk)
            switch chunk.type {
            case "fcTL":
                guard payload.count == 26 else { throw WebImageError(.corruptData, "APNG fcTL has a wrong size") }
                let p = payload.startIndex
                let numerator = Double(payload.readUInt16(at: p + 20))
                let denominator = Double(payload.readUInt16(at: p + 22))
                frames.append(
                    Frame(
                        width: Int(payload.readUInt32(at: p + 4)), height: Int(payload.readUInt32(at: p + 8)),
                        x: Int(payload.readUInt32(at: p + 12)), y: Int(payload.readUInt32(at: p + 16)),
                        duration: numerator / (denominator == 0 ? 100 : denominator),
                        dispose: payload[p + 24], blend: payload[p + 25]))
                if frames.count == 1 { frames[0].blend = 0 }
                if frames.count > options.limits.maxFrames {
                    throw WebImageError(.tooLarge, "APNG has more than \(options.limits.maxFrames) frames")
                }
            case "IDAT" where !frames.isEmpty:
                frames[frames.count - 1].data.append(payload)
            case "fdAT" where !frames.isEmpty && payload.count > 4:
                frames[frames.count - 1].data.append(payload.dropFirst(4))
            default:
                continue
            }
        }
        return frames.filter { !$0.data.isEmpty }
    }

    /// A PNG file holding just `frame`: signature, IHDR resized, shared chunks, the frame's data, IEND.
    private func standalonePNG(for frame: Frame) -> Data {
        var png = Data(PNGChunks.signature)
        var header = chunks.payload(chunks.chunks[0])
        header.replaceSubrange(
            header.startIndex..<(header.startIndex + 8), with: bigEndian(frame.width) + bigEndian(frame.height))
        append("IHDR", header, to: &png)
        for chunk in chunks.chunks {
            if chunk.type == "IDAT" { break }
            if ["IHDR", "acTL", "fcTL"].contains(chunk.type) { continue }
            append(chunk.type, chunks.payload(chunk), to: &png)
        }
        for part in frame.data { append("IDAT", part, to: &png) }
        append("IEND", Data(), to: &png)
        return png
    }

    private func append(_ type: String, _ payload: Data, to png: inout Data) {
        png.append(contentsOf: bigEndian(payload.count))
        png.append(contentsOf: Array(type.utf8))
        png.append(payload)
        png.append(contentsOf: bigEndian(Int(CRC32.checksum(Data(type.utf8), payload))))
    }

    private func bigEndian(_ value: Int) -> [UInt8] {
        [
            UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
            UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value),
        ]
    }
}
