import Foundation
import Testing

@testable import WebImage

/// Truncation is read from a JPEG's markers, not from TurboJPEG's messages.
@Suite struct JPEGStructureTests {
    private func truncated(_ data: Data) -> Bool {
        data.withUnsafeBytes(JPEGStructure.isTruncated)
    }

    @Test func completeFilesAreNotTruncatedWhereverTheyAreCut() throws {
        for name in ["exif_Landscape_6.jpg", "gen_progressive.jpg", "gen_baseline_420.jpg", "gen_cmyk.jpg"] {
            let data = try corpusImage(name)
            #expect(!truncated(data), "\(name) whole")
            #expect(!truncated(data + Data("trailing bytes".utf8)), "\(name) with bytes after its end")
            for cut in stride(from: 1, to: data.count - 1, by: max(1, data.count / 97)) {
                #expect(truncated(data.prefix(cut)), "\(name) cut at \(cut)")
            }
        }
    }

    @Test func anEndMarkerInsideASegmentDoesNotCount() {
        // SOI, an APP1 segment whose payload holds FFD9 (as an EXIF thumbnail does), then the data stops.
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x06, 0xFF, 0xD8, 0xFF, 0xD9, 0xFF, 0xDB, 0x00]
        #expect(truncated(Data(bytes)))
    }

    @Test func brokenStructureIsCorruptNotTruncated() {
        #expect(!truncated(Data([0x89, 0x50, 0x4E, 0x47])), "not a JPEG")
        #expect(!truncated(Data([0xFF, 0xD8, 0x12, 0x34, 0x56])), "no marker where one must be")
        #expect(!truncated(Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01, 0x00])), "a segment length below 2")
    }

    @Test func aCutFileIsReportedAsTruncated() throws {
        let data = try corpusImage("exif_Landscape_6.jpg")
        for fraction in [0.5, 0.9] {
            let cut = data.prefix(Int(Double(data.count) * fraction))
            #expect(throws: WebImageError.self) { try ImageCoders.default.decode(cut, options: .default) }
            do {
                _ = try ImageCoders.default.decode(cut, options: .default)
            } catch let error as WebImageError {
                #expect(error.code == .truncatedData)
            }
        }
    }
}
