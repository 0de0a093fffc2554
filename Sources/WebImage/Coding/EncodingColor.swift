import Foundation

/// The colours and metadata an encoder writes: the image's pixels and profile as they are when the options embed the
/// profile, otherwise sRGB pixels and no profile; the image's EXIF block, XMP packet and IPTC when the options embed
/// metadata, or only their copyright fields when they keep the copyright.
struct EncodingColor {
    /// The frames to encode.
    let frames: [ImageFrame]
    /// The ICC profile to embed, if any.
    let profile: Data?
    /// The EXIF block to embed, if any.
    let exif: Data?
    /// The XMP packet to embed, if any.
    let xmp: Data?
    /// The IPTC (Photoshop image resources) to embed, if any; only the JPEG encoder writes it.
    let iptc: Data?

    /// Prepares `image` (all frames, or the first when `options` ask for it) for an encoder.
    init(_ image: Image, options: EncodingOptions) {
        let frames = options.firstFrameOnly ? [image.frames[0]] : image.frames
        exif =
            options.embedsMetadata
            ? image.exif.flatMap { $0.isEmpty ? nil : $0 }
            : options.keepsCopyright ? image.exif.flatMap(EXIFCopyright.block) : nil
        xmp =
            options.embedsMetadata
            ? image.xmp.flatMap { $0.isEmpty ? nil : $0 }
            : options.keepsCopyright ? image.xmp.flatMap(XMPCopyright.packet) : nil
        iptc =
            options.embedsMetadata
            ? image.iptc.flatMap { $0.isEmpty ? nil : $0 }
            : options.keepsCopyright ? image.iptc.flatMap(IPTCMetadata.copyright) : nil
        guard let profile = image.colorProfile, !profile.isEmpty else {
            (self.frames, self.profile) = (frames, nil)
            return
        }
        if options.embedsColorProfile {
            (self.frames, self.profile) = (frames, profile)
            return
        }
        self.frames = Image(frames: frames, isOpaque: image.isOpaque, colorProfile: profile).convertedToSRGB().frames
        self.profile = nil
    }
}

extension EncodingColor {
    /// The prepared frames as an image with `source`'s timing, for encoders that take a whole image.
    func image(like source: Image) -> Image {
        Image(frames: frames, loopCount: source.loopCount, format: source.format, scale: source.scale)
    }
}
