import CTIFF
import Foundation

/// A TIFF file in memory, open with libtiff on its first directory (page); closed when released.
final class TIFFFile {
    /// How the extra sample after the colour samples is to be read.
    enum Alpha {
        case none, associated, unassociated
    }

    let handle: OpaquePointer
    /// Keeps the client data libtiff calls back with alive as long as the handle.
    let stream: TIFFStream
    let width: Int
    let height: Int
    let bitsPerSample: Int
    let samplesPerPixel: Int
    /// `nil` when the tag is missing (libtiff then guesses from the sample count).
    let photometric: Int?
    let alpha: Alpha
    /// The `Orientation` value as stored; ``orientation`` is `.up` for values outside 1 to 8.
    let orientationTag: Int
    /// The embedded ICC profile (`InterColorProfile`, tag 34675), if any.
    let profile: Data?
    /// Whether the samples are 8-bit unsigned integers, interleaved (`PlanarConfiguration` 1), CMYK when separated:
    /// the layouts read here directly rather than through libtiff's RGBA conversion.
    let isChunky8Bit: Bool
    /// The samples of an interleaved grey or RGB image (with extra samples) of more than 8 bits that
    /// `TIFFDeepPixels` reads at 16 bits; `nil` for any other layout.
    let wideSamples: WideSamples?

    /// Samples of more than 8 bits that `TIFFDeepPixels` reads.
    enum WideSamples {
        /// 16-bit unsigned integers.
        case unsigned16
        /// 32-bit unsigned integers, which libtiff's RGBA conversion cannot read.
        case unsigned32
        /// 32-bit IEEE floats, linear light from 0 to 1 (as libvips reads them: scRGB), which libtiff's RGBA
        /// conversion cannot read.
        case float32

        init?(bits: Int, sampleFormat: Int) {
            switch (bits, Int32(sampleFormat)) {
            case (16, SAMPLEFORMAT_UINT): self = .unsigned16
            case (32, SAMPLEFORMAT_UINT): self = .unsigned32
            case (32, SAMPLEFORMAT_IEEEFP): self = .float32
            default: return nil
            }
        }

        /// The bytes of one sample.
        var bytes: Int { self == .unsigned16 ? 2 : 4 }
    }

    /// Opens `bytes`; libtiff allocates no single block larger than `limits` allow for a whole frame, unless
    /// `unlimited`.
    init(_ bytes: UnsafeRawBufferPointer, limits: DecodingLimits, unlimited: Bool = false) throws(WebImageError) {
        let stream = TIFFStream(reading: bytes)
        self.stream = stream
        // libtiff's 0 is no limit.
        let maxAllocation = unlimited ? 0 : max(limits.maxTotalBytes, 1 << 20)
        guard let handle = stream.open(mode: "r", maxAllocation: maxAllocation) else {
            throw stream.error("not a readable TIFF file")
        }
        self.handle = handle
        var width: UInt32 = 0, height: UInt32 = 0
        guard wi_tiff_get_uint32(handle, UInt32(TIFFTAG_IMAGEWIDTH), &width) == 1,
            wi_tiff_get_uint32(handle, UInt32(TIFFTAG_IMAGELENGTH), &height) == 1
        else {
            TIFFClose(handle)
            throw stream.error("the TIFF directory has no image size")
        }
        (self.width, self.height) = (Int(width), Int(height))
        let bits = Self.defaulted(handle, TIFFTAG_BITSPERSAMPLE)
        let samples = Self.defaulted(handle, TIFFTAG_SAMPLESPERPIXEL)
        (bitsPerSample, samplesPerPixel) = (bits, samples)
        var value: UInt16 = 0
        photometric = wi_tiff_get_uint16(handle, UInt32(TIFFTAG_PHOTOMETRIC), &value) == 1 ? Int(value) : nil
        orientationTag = Self.defaulted(handle, TIFFTAG_ORIENTATION)
        alpha = Self.alpha(handle, photometric: photometric, samplesPerPixel: samples)
        var count: UInt32 = 0
        var data: UnsafeRawPointer?
        if wi_tiff_get_icc_profile(handle, &count, &data) == 1, let data, count > 0 {
            profile = Data(bytes: data, count: Int(count))
        } else {
            profile = nil
        }
        let colorSamples: Int? =
            switch Int32(photometric ?? -1) {
            case PHOTOMETRIC_MINISBLACK, PHOTOMETRIC_MINISWHITE: 1
            case PHOTOMETRIC_RGB: 3
            case PHOTOMETRIC_SEPARATED where Self.defaulted(handle, TIFFTAG_INKSET) == Int(INKSET_CMYK): 4
            default: nil
            }
        let sampleFormat = Self.defaulted(handle, TIFFTAG_SAMPLEFORMAT)
        let chunky = Self.defaulted(handle, TIFFTAG_PLANARCONFIG) == Int(PLANARCONFIG_CONTIG)
        isChunky8Bit =
            bits == 8 && sampleFormat == Int(SAMPLEFORMAT_UINT) && chunky
            && colorSamples.map { (($0)...8).contains(samples) } == true
        wideSamples =
            chunky && colorSamples.map { $0 < 4 && (($0)...8).contains(samples) } == true
            ? WideSamples(bits: bits, sampleFormat: sampleFormat) : nil
    }

    deinit { TIFFClose(handle) }

    /// The orientation the file declares.
    var orientation: ImageOrientation { ImageOrientation(rawValue: orientationTag) ?? .up }

    /// The number of directories (pages); libtiff stops at a loop of directory offsets.
    var pageCount: Int { Int(TIFFNumberOfDirectories(handle)) }

    /// A 16-bit tag's value, or the default the specification gives it.
    private static func defaulted(_ handle: OpaquePointer, _ tag: Int32) -> Int {
        var value: UInt16 = 0
        return wi_tiff_get_defaulted_uint16(handle, UInt32(tag), &value) == 1 ? Int(value) : 0
    }

    /// What the first extra sample is, as libtiff's RGBA conversion takes it: four RGB samples without an
    /// `ExtraSamples` tag are associated alpha.
    private static func alpha(_ handle: OpaquePointer, photometric: Int?, samplesPerPixel: Int) -> Alpha {
        var count: UInt16 = 0
        var types: UnsafePointer<UInt16>?
        guard wi_tiff_get_extra_samples(handle, &count, &types) == 1, count > 0, let types else {
            return photometric == Int(PHOTOMETRIC_RGB) && samplesPerPixel == 4 ? .associated : .none
        }
        switch Int32(types[0]) {
        case EXTRASAMPLE_ASSOCALPHA: return .associated
        case EXTRASAMPLE_UNASSALPHA: return .unassociated
        default: return .none
        }
    }
}
