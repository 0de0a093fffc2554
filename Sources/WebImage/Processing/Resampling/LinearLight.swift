import Foundation

/// sRGB's transfer curve for resampling in linear light (``Resampler/linearLight``): 8-bit encoded samples to linear
/// values on the same 0-255 scale, and back, as libvips' `colourspace` to and from scRGB does.
enum LinearLight {
    /// Each encoded 8-bit value's linear value, 0-255.
    static let decoded: [Float] = (0..<256).map { Float(toLinear(Double($0) / 255) * 255) }

    /// sRGB's decoding curve on 0-1.
    static func toLinear(_ value: Double) -> Double {
        value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }

    /// sRGB's encoding curve on 0-1 (values outside are clamped).
    static func toEncoded(_ value: Double) -> Double {
        let clamped = min(max(value, 0), 1)
        return clamped <= 0.0031308 ? clamped * 12.92 : 1.055 * pow(clamped, 1 / 2.4) - 0.055
    }

    /// Replaces the colour samples (not alpha) of `count` floats (RGBA, 0-255 scale, loaded from bytes) by their
    /// linear values.
    static func decode(_ floats: UnsafeMutablePointer<Float>, count: Int) {
        decoded.withUnsafeBufferPointer { table in
            var index = 0
            while index < count {
                for channel in 0..<3 {
                    floats[index + channel] = table[Int(min(max(floats[index + channel], 0), 255))]
                }
                index += 4
            }
        }
    }

    /// Replaces the linear colour samples (not alpha) of `count` floats (0-255 scale) by encoded values, 0-255.
    static func encode(_ floats: UnsafeMutablePointer<Float>, count: Int) {
        var index = 0
        while index < count {
            for channel in 0..<3 {
                let value = floats[index + channel]
                floats[index + channel] = value.isNaN ? 0 : Float(toEncoded(Double(value) / 255) * 255)
            }
            index += 4
        }
    }
}

extension LinearLight {
    /// Each encoded 16-bit value's linear value, 0-65535.
    static let decoded16: [Float] = (0..<65536).map { Float(toLinear(Double($0) / 65535) * 65535) }

    /// As ``decode(_:count:)``, for floats on a 0-65535 scale (loaded from 16-bit samples).
    static func decode16(_ floats: UnsafeMutablePointer<Float>, count: Int) {
        decoded16.withUnsafeBufferPointer { table in
            var index = 0
            while index < count {
                for channel in 0..<3 {
                    floats[index + channel] = table[Int(min(max(floats[index + channel], 0), 65535))]
                }
                index += 4
            }
        }
    }

    /// As ``encode(_:count:)``, for floats on a 0-65535 scale.
    static func encode16(_ floats: UnsafeMutablePointer<Float>, count: Int) {
        var index = 0
        while index < count {
            for channel in 0..<3 {
                let value = floats[index + channel]
                floats[index + channel] = value.isNaN ? 0 : Float(toEncoded(Double(value) / 65535) * 65535)
            }
            index += 4
        }
    }
}
