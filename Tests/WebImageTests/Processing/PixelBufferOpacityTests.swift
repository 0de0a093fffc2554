import Testing
import WebImage

/// `isOpaque` decides whether the resampler premultiplies; it reads alpha a block of words at a time, so one
/// translucent pixel must be found in any block, including a short last one.
@Suite struct PixelBufferOpacityTests {
    @Test(arguments: [(1, 1), (33, 31), (64, 16), (50, 50), (1025, 3)])
    func oneTranslucentPixelAnywhereIsFound(width: Int, height: Int) {
        let opaque = PixelBuffer(width: width, height: height, filledWith: RGBA(red: 10, green: 20, blue: 30))
        #expect(opaque.isOpaque)
        let count = width * height
        for pixel in Set([0, 1023, 1024, count / 2, count - 1].filter { $0 < count }) {
            var bytes = opaque.bytes
            bytes[pixel * 4 + 3] = 254
            #expect(!PixelBuffer(width: width, height: height, bytes: bytes).isOpaque, "pixel \(pixel)")
        }
    }

    @Test func colourChannelsAtFullValueDoNotCountAsAlpha() {
        var bytes = [UInt8](repeating: 255, count: 40 * 4)
        bytes[7] = 0
        #expect(!PixelBuffer(width: 40, height: 1, bytes: bytes).isOpaque)
        bytes[7] = 255
        bytes[4] = 0
        #expect(PixelBuffer(width: 40, height: 1, bytes: bytes).isOpaque)
    }
}
