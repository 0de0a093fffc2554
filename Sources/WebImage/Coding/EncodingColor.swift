import Foundation

/// The colours an encoder writes: the image's pixels and profile as they are when the options embed the profile,
/// otherwise sRGB pixels and no profile.
struct EncodingColor {
    /// The frames to encode.
    let frames: [ImageFrame]
    /// The ICC profile to embed, if any.
    let profile: Data?

    /// Prepares `image` (all frames, or the first when `options` ask for it) for an encoder.
    init(_ image: Image, options: EncodingOptions) {
        let frames = options.firstFrameOnly ? [image.frames[0]] : image.frames
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
