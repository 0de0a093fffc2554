/// The channel masks of 16- and 32-bit BMP pixels: `BI_BITFIELDS`, `BI_ALPHABITFIELDS`, or the fixed layouts of
/// `BI_RGB` (5-5-5 for 16 bits, BGRA for 32).
struct BMPMasks: Equatable {
    /// Red, green, blue and alpha; an alpha channel of 0 bits means opaque pixels.
    let red: BMPChannel
    let green: BMPChannel
    let blue: BMPChannel
    let alpha: BMPChannel

    /// `BI_RGB` 16-bit pixels: 5 bits each of red, green and blue, the top bit unused.
    static let rgb555 = BMPMasks(unchecked: 0x7C00, 0x03E0, 0x001F, 0)
    /// `BI_RGB` 32-bit pixels: blue, green, red, alpha bytes (the alpha byte is taken as browsers take it; see
    /// ``BMPPixels``).
    static let bgra = BMPMasks(unchecked: 0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0xFF00_0000)

    private init(unchecked red: UInt32, _ green: UInt32, _ blue: UInt32, _ alpha: UInt32) {
        self.red = BMPChannel(mask: red)
        self.green = BMPChannel(mask: green)
        self.blue = BMPChannel(mask: blue)
        self.alpha = BMPChannel(mask: alpha)
    }

    /// Masks from a header, refused unless red, green and blue are non-empty, each mask is one run of bits within
    /// `bitCount` bits, and no two overlap.
    init(red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32, bitCount: Int) throws(WebImageError) {
        let masks = [("red", red), ("green", green), ("blue", blue), ("alpha", alpha)]
        for (name, mask) in masks {
            guard mask != 0 || name == "alpha" else { throw BMPHeader.corrupt("the \(name) mask is empty") }
            guard mask >> bitCount == 0 else {
                throw BMPHeader.corrupt("the \(name) mask 0x\(String(mask, radix: 16)) exceeds \(bitCount) bits")
            }
            let run = UInt64(mask >> mask.trailingZeroBitCount)
            guard run & (run + 1) == 0 else {
                throw BMPHeader.corrupt("the \(name) mask 0x\(String(mask, radix: 16)) is not contiguous")
            }
        }
        guard red & green == 0, red & blue == 0, green & blue == 0, alpha & (red | green | blue) == 0 else {
            throw BMPHeader.corrupt("the channel masks overlap")
        }
        self.init(unchecked: red, green, blue, alpha)
    }
}

/// One channel of masked BMP pixels, scaled to 8 bits as Chromium scales it.
struct BMPChannel: Equatable {
    /// The bits of the channel in a pixel.
    let mask: UInt32
    /// How far the channel is from bit 0.
    let shift: UInt32
    /// How many bits it has.
    let bits: Int
    /// 8-bit values of channels narrower than 8 bits, rounded (5 bits: 0, 8, 16, 25, …, 255); `[255]` for an absent
    /// channel, so that a missing alpha reads as opaque.
    private let scaled: [UInt8]

    init(mask: UInt32) {
        self.mask = mask
        shift = mask == 0 ? 0 : UInt32(mask.trailingZeroBitCount)
        bits = mask.nonzeroBitCount
        let maximum = (1 << bits) - 1
        scaled =
            bits == 0 ? [255] : bits < 8 ? (0...maximum).map { UInt8(($0 * 255 + maximum / 2) / maximum) } : []
    }

    /// The channel of `pixel` as 0 to 255: scaled up when narrower than 8 bits, its top 8 bits when wider.
    @inline(__always)
    func value(_ pixel: UInt32) -> UInt8 {
        let raw = (pixel & mask) >> shift
        return bits >= 8 ? UInt8(truncatingIfNeeded: raw >> UInt32(bits - 8)) : scaled[Int(raw)]
    }
}
