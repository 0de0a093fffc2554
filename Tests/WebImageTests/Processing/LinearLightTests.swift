import Testing

@testable import WebImage

@Suite("Resampling in linear light")
struct LinearLightTests {
    /// Black and white side by side, halved: the average of the encoded values (128) by default, the average of the
    /// light (sRGB's 50 % linear: 188) in linear light, as libvips resizes in scRGB.
    @Test func averagesLightRatherThanEncodedValues() {
        let pixels = PixelBuffer(width: 2, height: 1, bytes: [0, 0, 0, 255, 255, 255, 255, 255])
        let size = PixelSize(width: 1, height: 1)
        let encoded = Resampler().resample(pixels, to: size)[0, 0]
        let linear = Resampler(linearLight: true).resample(pixels, to: size)[0, 0]
        #expect(abs(Int(encoded.red) - 128) <= 1)
        #expect(abs(Int(linear.red) - 188) <= 1)
        #expect(linear.red == linear.green && linear.green == linear.blue && linear.alpha == 255)
    }

    /// Every 8-bit value survives the trip to linear light and back.
    @Test func theCurvesAreInverse() {
        for value in 0..<256 {
            let back = LinearLight.toEncoded(Double(LinearLight.decoded[value]) / 255) * 255
            #expect(abs(back - Double(value)) < 0.01, "\(value)")
        }
    }

    /// A flat colour stays flat (no drift from the round trip) and transparency is filtered premultiplied.
    @Test func flatColourAndAlphaStay() {
        let flat = PixelBuffer(width: 40, height: 30, filledWith: RGBA(red: 90, green: 160, blue: 220, alpha: 120))
        let small = Resampler(linearLight: true).resample(flat, to: PixelSize(width: 13, height: 7))
        for y in 0..<7 {
            for x in 0..<13 {
                let pixel = small[x, y]
                #expect(abs(Int(pixel.red) - 90) <= 1 && abs(Int(pixel.green) - 160) <= 1)
                #expect(abs(Int(pixel.blue) - 220) <= 1 && pixel.alpha == 120)
            }
        }
    }
}
