import CLCMS2
import Foundation

/// An lcms2 transform from an embedded ICC profile to sRGB, applied in place to decoded pixels.
///
/// Made by ``ColorTransforms``, which caches one per profile. Transforms are created with `cmsFLAGS_NOCACHE`, which
/// makes `cmsDoTransform` safe to call from several threads at once on one transform.
final class ColorTransform: @unchecked Sendable {
    // Immutable after init. `lcms` is only read (cmsDoTransform with NOCACHE keeps no per-call state in it);
    // `shaper` and `greyTable` are values.
    private let lcms: cmsHTRANSFORM?
    private let shaper: MatrixShaper?
    /// For grey sources: the sRGB red, green and blue of each of the 256 grey levels, one after the other.
    private let greyTable: [UInt8]?
    /// What the source pixels are.
    let source: ColorSource

    /// A transform from `profile` to sRGB, or `nil` when lcms2 cannot read the profile or it does not describe
    /// `source` pixels (a CMYK profile on an RGB image, say).
    ///
    /// RGB matrix/TRC profiles use the fast ``MatrixShaper``; others (LUT-based RGB, CMYK) use lcms2's pipeline;
    /// a grey profile becomes a table of its 256 levels, made by lcms2.
    init?(profile: Data, source: ColorSource) {
        let input = profile.withUnsafeBytes { bytes in
            cmsOpenProfileFromMem(bytes.baseAddress, cmsUInt32Number(clamping: bytes.count))
        }
        guard let input else { return nil }
        defer { cmsCloseProfile(input) }
        guard cmsGetColorSpace(input) == source.colorSpace else { return nil }
        self.source = source
        if source == .rgba, let shaper = MatrixShaper(profile: input) {
            (self.shaper, lcms, greyTable) = (shaper, nil, nil)
            return
        }
        guard let output = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(output) }
        if source == .grey {
            guard let table = Self.makeGreyTable(input, output) else { return nil }
            (greyTable, shaper, lcms) = (table, nil, nil)
            return
        }
        // CMYK profiles are lookup tables: a finer precalculated table keeps 8-bit rounding off the colours.
        let flags =
            cmsUInt32Number(cmsFLAGS_NOCACHE)
            | cmsUInt32Number(source == .rgba ? cmsFLAGS_COPY_ALPHA : cmsFLAGS_HIGHRESPRECALC)
        guard
            let lcms = cmsCreateTransform(
                input, source.pixelType, output, WI_TYPE_RGBA_8, cmsUInt32Number(INTENT_PERCEPTUAL), flags)
        else { return nil }
        (self.lcms, shaper, greyTable) = (lcms, nil, nil)
    }

    /// The sRGB colour of each grey level of `input`, through lcms2 (the profile's curve, then its white point
    /// adapted to sRGB's).
    private static func makeGreyTable(_ input: cmsHPROFILE, _ output: cmsHPROFILE) -> [UInt8]? {
        guard
            let transform = cmsCreateTransform(
                input, WI_TYPE_GRAY_8, output, WI_TYPE_RGB_8, cmsUInt32Number(INTENT_PERCEPTUAL),
                cmsUInt32Number(cmsFLAGS_NOCACHE))
        else { return nil }
        defer { cmsDeleteTransform(transform) }
        let levels = (0...255).map { UInt8($0) }
        var table = [UInt8](repeating: 0, count: 256 * 3)
        table.withUnsafeMutableBytes { output in
            levels.withUnsafeBytes { cmsDoTransform(transform, $0.baseAddress, output.baseAddress, 256) }
        }
        return table
    }

    deinit {
        if let lcms { cmsDeleteTransform(lcms) }
    }

    /// Whether lcms2 reads `profile` as a description of `source` pixels (an RGB profile for RGBA pixels, not a
    /// grey or CMYK one).
    static func profile(_ profile: Data, describes source: ColorSource) -> Bool {
        let input = profile.withUnsafeBytes { bytes in
            cmsOpenProfileFromMem(bytes.baseAddress, cmsUInt32Number(clamping: bytes.count))
        }
        guard let input else { return false }
        defer { cmsCloseProfile(input) }
        return cmsGetColorSpace(input) == source.colorSpace
    }

    /// Converts 4-byte pixels in place to sRGB RGBA; CMYK sources come out opaque, grey ones are read from red.
    func apply(_ pixels: UnsafeMutableBufferPointer<UInt8>) {
        if let greyTable {
            greyTable.withUnsafeBufferPointer { table in
                for index in stride(from: 0, to: pixels.count - 3, by: 4) {
                    let level = Int(pixels[index]) * 3
                    (pixels[index], pixels[index + 1], pixels[index + 2]) =
                        (table[level], table[level + 1], table[level + 2])
                }
            }
            return
        }
        if let shaper {
            Self.inParallel(pixels, shaper)
            return
        }
        guard let lcms, let base = pixels.baseAddress else { return }
        let count = pixels.count / 4
        // lcms2 converts in chunks; input and output pixels are both 4 bytes, so in place is safe.
        let chunk = 1 << 16
        var start = 0
        while start < count {
            let length = min(chunk, count - start)
            cmsDoTransform(lcms, base + start * 4, base + start * 4, cmsUInt32Number(length))
            start += length
        }
        if source != .rgba && source != .grey {
            var index = 3
            while index < pixels.count {
                pixels[index] = 255
                index += 4
            }
        }
    }

    /// Runs `shaper` over slices of whole pixels on every core, for images of a megapixel or more.
    private static func inParallel(_ pixels: UnsafeMutableBufferPointer<UInt8>, _ shaper: MatrixShaper) {
        let count = pixels.count / 4
        let parts = min(ProcessInfo.processInfo.activeProcessorCount, count >> 20)
        guard parts > 1, let start = pixels.baseAddress else { return shaper.apply(pixels) }
        // Each iteration writes its own disjoint slice, and concurrentPerform returns only when all are done.
        nonisolated(unsafe) let base = start
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let first = count * part / parts
            let end = count * (part + 1) / parts
            shaper.apply(UnsafeMutableBufferPointer(start: base + first * 4, count: (end - first) * 4))
        }
    }

    /// Whether the transform leaves every colour as it is (within 1 step), that is the profile is sRGB or as good
    /// as sRGB: probes a 9x9x9 grid of colours.
    var isIdentity: Bool {
        if let greyTable {
            return (0..<256).allSatisfy { level in
                (0..<3).allSatisfy { abs(Int(greyTable[level * 3 + $0]) - level) <= 1 }
            }
        }
        guard source == .rgba else { return false }
        let levels: [UInt8] = [0, 32, 64, 96, 128, 160, 192, 224, 255]
        var probe: [UInt8] = []
        for red in levels {
            for green in levels {
                for blue in levels { probe += [red, green, blue, 255] }
            }
        }
        let original = probe
        probe.withUnsafeMutableBufferPointer { apply($0) }
        return zip(probe, original).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
    }
}

/// The kind of pixels a colour transform reads.
enum ColorSource: Hashable, Sendable {
    /// RGBA, alpha copied through.
    case rgba
    /// CMYK as libjpeg returns it (0 means no ink).
    case cmyk
    /// CMYK stored inverted, as Adobe applications write it (0 means full ink).
    case invertedCMYK
    /// RGBA decoded from one grey channel (red, green and blue equal), alpha copied through.
    case grey

    var colorSpace: cmsColorSpaceSignature {
        switch self {
        case .rgba: cmsSigRgbData
        case .grey: cmsSigGrayData
        case .cmyk, .invertedCMYK: cmsSigCmykData
        }
    }

    var pixelType: cmsUInt32Number {
        switch self {
        case .rgba: WI_TYPE_RGBA_8
        case .grey: WI_TYPE_GRAY_8
        case .cmyk: WI_TYPE_CMYK_8
        case .invertedCMYK: WI_TYPE_CMYK_8_REV
        }
    }
}
