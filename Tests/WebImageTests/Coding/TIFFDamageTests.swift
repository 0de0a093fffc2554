import Foundation
import Testing

@testable import WebImage

/// Hostile TIFF bytes are a typed error, never a trap nor a message on stderr: every truncation of every fixture,
/// and hand-made directories with impossible sizes, offsets and loops.
@Suite(.serialized) struct TIFFDamageTests {
    private func error(_ data: Data) -> WebImageError? {
        do {
            _ = try ImageCoders.default.decode(data, options: .default)
            return nil
        } catch {
            return error
        }
    }

    /// Cut at every length, a fixture is a typed error (a cut inside the second page of the two-page file leaves
    /// the first, which is all that is decoded), and its header reads or fails without a crash.
    @Test(arguments: TIFFCoderTests.fixtures)
    func everyTruncationIsATypedError(_ fixture: FormatsFixture) throws {
        let data = try fixture.data()
        for length in 0..<data.count {
            let cut = data.prefix(length)
            if fixture.file.hasSuffix("tiff_pages.tif") {
                _ = error(cut)
            } else {
                #expect(error(cut) != nil, "cut at \(length)")
            }
            _ = try? ImageCoders.default.info(of: cut)
        }
    }

    /// A little-endian TIFF: the header, `pixels` from offset 8, then one directory of `fields` (tag, type, value
    /// held in the entry), whose next-directory offset is `next` (`nil`: the directory itself, a loop).
    static func file(_ fields: [(UInt16, UInt16, UInt32)], pixels: [UInt8], next: UInt32? = 0) -> Data {
        var data = Data()
        func put(_ value: UInt32, _ count: Int) {
            for index in 0..<count { data.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
        }
        let directory = UInt32(8 + pixels.count + pixels.count % 2)
        data.append(contentsOf: [0x49, 0x49, 0x2A, 0x00])
        put(directory, 4)
        data.append(contentsOf: pixels)
        if pixels.count % 2 == 1 { data.append(0) }
        put(UInt32(fields.count), 2)
        for (tag, type, value) in fields.sorted(by: { $0.0 < $1.0 }) {
            put(UInt32(tag), 2)
            put(UInt32(type), 2)
            put(1, 4)
            put(value, 4)
        }
        put(next ?? directory, 4)
        return data
    }

    /// Fields of an 8-bit grey image of `width` by `height` in one strip of `bytes` bytes at offset 8.
    static func grey(width: UInt32, height: UInt32, bytes: UInt32) -> [(UInt16, UInt16, UInt32)] {
        [
            (256, 4, width), (257, 4, height), (258, 3, 8), (259, 3, 1), (262, 3, 1), (273, 4, 8), (277, 3, 1),
            (278, 4, height), (279, 4, bytes),
        ]
    }

    @Test func theHandMadeFileDecodes() throws {
        let image = try TIFFCoder().decode(
            Self.file(Self.grey(width: 2, height: 2, bytes: 4), pixels: [0, 85, 170, 255]), options: .default)
        #expect((0..<2).flatMap { y in (0..<2).map { image.pixels[$0, y].red } } == [0, 85, 170, 255])
    }

    @Test func aHugeSizeIsRefusedBeforeDecoding() throws {
        let data = Self.file(Self.grey(width: 200_000, height: 200_000, bytes: 4), pixels: [1, 2, 3, 4])
        let info = try TIFFCoder().info(of: data)
        #expect(info.width == 200_000 && info.height == 200_000)
        #expect(error(data)?.code == .tooLarge)
        // libtiff refuses a directory this large itself.
        let widest = Self.file(Self.grey(width: UInt32.max, height: UInt32.max, bytes: 4), pixels: [1, 2, 3, 4])
        #expect(error(widest) != nil)
    }

    @Test func impossibleOffsetsAreErrors() {
        var past = Self.file(Self.grey(width: 2, height: 2, bytes: 4), pixels: [0, 85, 170, 255])
        past.replaceSubrange(4..<8, with: [0x00, 0xFF, 0xFF, 0x7F])
        #expect(error(past) != nil)
        #expect(throws: WebImageError.self) { try TIFFCoder().info(of: past) }
        var fields = Self.grey(width: 2, height: 2, bytes: 4)
        fields[5] = (273, 4, 0x7FFF_FFF0)
        #expect(error(Self.file(fields, pixels: [0, 85, 170, 255])) != nil, "a strip past the end")
        #expect(error(Self.file(Self.grey(width: 0, height: 2, bytes: 4), pixels: [0, 85, 170, 255])) != nil)
    }

    /// Fields of an 8-bit grey image of `width` by `height` in one tile of `tileWidth` by `tileHeight` at offset 8.
    static func tiledGrey(
        width: UInt32, height: UInt32, tileWidth: UInt32, tileHeight: UInt32
    ) -> [(UInt16, UInt16, UInt32)] {
        [
            (256, 4, width), (257, 4, height), (258, 3, 8), (259, 3, 1), (262, 3, 1), (277, 3, 1),
            (322, 4, tileWidth), (323, 4, tileHeight), (324, 4, 8), (325, 4, 256),
        ]
    }

    /// The tile's size comes from the file: a tiny image with tiles whose byte count overflows, or that would take
    /// gigabytes, is an error before any tile is allocated (it used to trap on the multiplication).
    @Test func hugeTilesOfATinyImageAreAnError() throws {
        let pixels = [UInt8](repeating: 128, count: 256)
        let fine = try TIFFCoder().decode(
            Self.file(Self.tiledGrey(width: 2, height: 2, tileWidth: 16, tileHeight: 16), pixels: pixels),
            options: .default)
        #expect(fine.pixels[1, 1].red == 128)
        for side: UInt32 in [0xFFFF_FFF0, 65_536] {
            let data = Self.file(
                Self.tiledGrey(width: 2, height: 2, tileWidth: side, tileHeight: side), pixels: pixels)
            #expect(error(data) != nil, "\(side)")
        }
    }

    @Test func aLoopOfDirectoriesIsOnePage() throws {
        let data = Self.file(Self.grey(width: 2, height: 2, bytes: 4), pixels: [0, 85, 170, 255], next: nil)
        #expect(try TIFFCoder().info(of: data).frameCount == 1)
        #expect(error(data) == nil)
    }

    /// libtiff's messages (errors on damaged files, warnings on unknown tags) are captured, not printed.
    @Test func nothingIsWrittenToStandardError() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tiff-stderr-\(UUID().uuidString)")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: url) }
        let capture = try FileHandle(forWritingTo: url)
        let saved = dup(2)
        dup2(capture.fileDescriptor, 2)
        var unknownTag = Self.grey(width: 2, height: 2, bytes: 4)
        unknownTag.append((65000, 3, 7))
        #expect(error(Self.file(unknownTag, pixels: [0, 85, 170, 255])) == nil)
        let data = try FormatsFixture.image("tiff_rgb_lzw.tif")
        var damaged = data
        for index in stride(from: 16, to: damaged.count, by: 97) { damaged[index] ^= 0x5A }
        _ = error(damaged)
        _ = error(data.prefix(data.count - 10))
        _ = error(data.prefix(9))
        fflush(nil)
        dup2(saved, 2)
        close(saved)
        try capture.close()
        // Other suites running at the same time may write here too; libtiff's messages name a TIFF or codec module.
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        #expect(!text.contains("TIFF") && !text.contains("LZW"), "\(text)")
    }
}
