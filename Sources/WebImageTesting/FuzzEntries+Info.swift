import Foundation
import WebImage
import WebImageServer

extension FuzzEntries {
    /// A 24x16 picture with every kind of pixel the analyses treat apart: opaque, translucent, clear, near-white.
    private static let infoPicture: Data = {
        let pixels = PixelBuffer(width: 24, height: 16) { buffer in
            for index in stride(from: 0, to: buffer.count, by: 4) {
                let pixel = index / 4
                buffer[index] = UInt8(truncatingIfNeeded: pixel &* 37)
                buffer[index + 1] = UInt8(truncatingIfNeeded: pixel &* 11)
                buffer[index + 2] = pixel % 7 == 0 ? 255 : UInt8(truncatingIfNeeded: pixel &* 5)
                buffer[index + 3] = [255, 255, 128, 0][pixel % 4]
            }
        }
        return (try? ImageCoders.default.encode(Image(pixels: pixels), as: .png, options: .default)) ?? Data()
    }()

    /// The bytes as an `/info` path (after `/info`), parsed with info presets and the security options allowed;
    /// a path that parses is answered for a small picture, so every option's numbers reach the analyses.
    public static func infoURL(_ data: Data) {
        var configuration = InfoConfiguration()
        configuration.allowsSecurityOptions = true
        configuration.presets =
            (try? InfoConfiguration.presets(definitions: ["default=xmp:0", "p=pr:p/bh:3:3"])) ?? Presets()
        let parser = InfoURLParser(signer: nil, configuration: configuration)
        guard let request = try? parser.parse(String(decoding: data, as: UTF8.self), now: 1_000_000) else { return }
        let options = request.options
        precondition((0...256).contains(options.paletteColors), "palette colours outside 0...256")
        precondition(
            (0...9).contains(options.blurHashX) && (0...9).contains(options.blurHashY), "blurhash outside 0...9")
        let hashsumKinds: Set = ["md5", "sha1", "sha256", "sha512"]
        precondition(
            options.hashsumType.map { hashsumKinds.contains($0) && !options.expectedHashsum.isEmpty } ?? true,
            "a hashsum check of an unknown kind or without a digest")
        guard let report = try? options.report(for: infoPicture, maxResolution: 1_000_000) else { return }
        precondition(report.hasPrefix("{") && report.hasSuffix("}"), "the report is not a JSON object")
    }
}
