import Foundation

/// The sRGB transfer function, as BlurHash and the colour analyses use it.
enum SRGB {
    /// Linear light (0...1) of each 8-bit sRGB value.
    static let linear: [Double] = (0...255).map { value in
        let v = Double(value) / 255
        return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    /// The 8-bit sRGB value of linear light `value` (clamped to 0...1), rounded as the BlurHash reference does.
    static func encode(_ value: Double) -> Int {
        let v = max(0, min(1, value))
        return v <= 0.003_130_8 ? Int(v * 12.92 * 255 + 0.5) : Int((1.055 * pow(v, 1 / 2.4) - 0.055) * 255 + 0.5)
    }
}
