import Foundation

/// The process-wide cache of ICC-to-sRGB transforms, one per (profile bytes, source kind).
///
/// Building an lcms2 transform costs far more than running it on a small image, and a site's images mostly share a
/// handful of profiles (sRGB, Display P3, Adobe RGB), so each is built once. Profiles that lcms2 finds equivalent to
/// sRGB are cached as "no transform", so their images skip colour conversion entirely.
enum ColorTransforms {
    /// The profile is kept as an array, not as `Data`: `Data` stores its buffer's address with enum tag bits in the
    /// pointer's spare high bits, which LeakSanitizer does not recognise as a reference, so profiles held by this
    /// global were reported as leaked at exit. An array holds a plain reference, and the cache stays reachable.
    private struct Key: Hashable {
        let profile: [UInt8]
        let source: ColorSource
    }

    /// `nil` entries: the profile is unusable or as good as sRGB.
    private static let cache = Locked<[Key: ColorTransform?]>([:])
    private static let capacity = 64

    /// The transform from `profile` to sRGB for `source` pixels; `nil` when there is nothing to do (RGB profiles
    /// equivalent to sRGB) or nothing that can be done (a profile lcms2 rejects: browsers ignore those too).
    static func transform(for profile: Data, source: ColorSource) -> ColorTransform? {
        let key = Key(profile: Array(profile), source: source)
        if let cached = cache.withLock({ $0[key] }) { return cached }
        var made = ColorTransform(profile: profile, source: source)
        if let transform = made, transform.isIdentity { made = nil }
        let result = made
        cache.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = .some(result)
        }
        return result
    }
}

/// What a decoder does with an embedded ICC profile, as ``DecodingOptions/keepsColorProfile`` asks.
struct ColorHandling {
    /// Applied to the decoded pixels, when they must become sRGB.
    let transform: ColorTransform?
    /// The profile to carry on the decoded ``Image``, when the pixels keep their source colours.
    let keptProfile: Data?
    /// The profile ``transform`` applies, for decoders that apply it at 16 bits (``DeepColorConversion``).
    let appliedProfile: Data?

    /// The handling of `profile` (the embedded ICC bytes, if any) for `source` pixels.
    ///
    /// CMYK pixels always go through their profile (the image must become RGB); without a profile a CMYK image
    /// falls back to the decoder's naive conversion. Only an RGB profile is kept: a grey one (common on greyscale
    /// JPEGs, decoded to RGBA) or one lcms2 cannot read would mislabel the RGB pixels an encoder writes, so it is
    /// handled as when converting: a grey profile on `.grey` pixels is applied to their levels (a linear or L* grey
    /// profile changes every level), any profile that does not describe the pixels is ignored.
    init(profile: Data?, source: ColorSource = .rgba, options: DecodingOptions) {
        guard let profile, !profile.isEmpty else {
            (transform, keptProfile, appliedProfile) = (nil, nil, nil)
            return
        }
        if options.keepsColorProfile && source == .rgba && ColorTransform.profile(profile, describes: .rgba) {
            (transform, keptProfile, appliedProfile) = (nil, profile, nil)
        } else {
            transform = ColorTransforms.transform(for: profile, source: source)
            (keptProfile, appliedProfile) = (nil, transform == nil ? nil : profile)
        }
    }

    /// Converts decoded pixels in place, if a transform applies.
    func apply(_ pixels: UnsafeMutableBufferPointer<UInt8>) {
        transform?.apply(pixels)
    }
}
