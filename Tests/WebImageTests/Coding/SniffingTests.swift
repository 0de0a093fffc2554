import Foundation
import Testing

@testable import WebImage

@Suite struct SniffingTests {
    @Test(
        arguments: [
            ([0xFF, 0xD8, 0xFF, 0xE0], ImageFormat.jpeg),
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], .png),
            (Array("GIF89a".utf8), .gif),
            (Array("RIFF\0\0\0\0WEBPVP8 ".utf8), .webp),
            ([0x49, 0x49, 0x2A, 0x00], .tiff),
            (Array("\0\0\0\u{18}ftypheic".utf8), .heic),
            (Array("\0\0\0\u{18}ftypavif".utf8), .avif),
            (Array("\0\0\0\u{1C}ftypmif1\0\0\0\0mif1miafavif".utf8), .avif),
            (Array("\0\0\0\u{18}ftypmif1\0\0\0\0mif1heic".utf8), .heic),
            (Array("<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), .svg),
            (Array("BM".utf8) + [0, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0, 40] + [UInt8](repeating: 0, count: 11), .bmp),
            (Array("BM".utf8) + [0, 0, 0, 0, 0, 0, 0, 0, 26, 0, 0, 0, 12] + [UInt8](repeating: 0, count: 11), .bmp),
            (Array("BMW owners club: a text that starts like a bitmap".utf8), .unknown),
            ([0x00, 0x00, 0x01, 0x00, 0x01, 0x00], .ico),
            ([0x00, 0x00, 0x02, 0x00, 0x01, 0x00], .ico),
            ([0x00, 0x00, 0x01, 0x00, 0x00, 0x00], .unknown),
            (Array("<html><body>Not found</body></html>".utf8), .unknown),
            ([], .unknown),
        ] as [([UInt8], ImageFormat)])
    func sniffsMagicBytes(bytes: [UInt8], format: ImageFormat) {
        #expect(ImageFormat.sniff(Data(bytes)) == format)
    }
}
