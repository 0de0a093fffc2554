import Foundation
import HummingbirdTesting
import NIOCore
import Testing
import WebImage
import WebImageTesting

@testable import WebImageServer

/// `/info`'s `iptc` (imgproxy Pro's, on by default): the IPTC-IIM datasets by title and the Photoshop resolution, from
/// a JPEG's `APP13` or a TIFF's `RichTIFFIPTC`.
@Suite("Server: /info iptc")
struct InfoIPTCTests {
    /// The copyright sample's datasets after a 72-by-300 dpi resolution resource.
    static var resources: Data {
        var resolution = Array("8BIM".utf8) + [0x03, 0xED, 0, 0, 0, 0, 0, 16]
        resolution += [0, 72, 0, 0, 0, 1, 0, 2] + [0x01, 0x2C, 0x80, 0, 0, 2, 0, 3]
        let iptc = [UInt8](CopyrightSamples.iptc)
        // The sample's own resolution resource (30 bytes) is replaced by this one.
        return Data(resolution + iptc.dropFirst(30))
    }

    static func source(_ format: ImageFormat) throws -> Data {
        let pixels = PixelBuffer(width: 8, height: 6, filledWith: RGBA(red: 200, green: 10, blue: 10))
        return try ImageCoders.default.encode(
            Image(frames: [ImageFrame(pixels: pixels)], iptc: resources), as: format,
            options: EncodingOptions(embedsMetadata: true))
    }

    static let expected =
        #""iptc":{"By-line":["Jane Doe"],"Caption":"Secret caption","Caption/Abstract":"Secret caption","#
        + #""Coded Character Set":"GyVH","Copyright Notice":"(c) ACME 2026","Credit":"ACME Credit","#
        + #""Name":"Object name","Object Name":"Object name","Record Version":4}"#

    @Test func datasetsByTitleAndThePhotoshopResolution() throws {
        let json = try InfoReport.make(try Self.source(.jpeg), options: InfoOptions(), maxResolution: 1 << 24).text
        #expect(json.contains(Self.expected), "\(json)")
        #expect(
            json.contains(
                #""photoshop":{"resolution":{"XResolution":72,"XResolutionUnit":"inches","WidthUnit":"cm","#
                    + #""YResolution":300.5,"YResolutionUnit":"cm","HeightUnit":"points"}}"#), "\(json)")
        var off = InfoOptions()
        off.iptc = false
        let without = try InfoReport.make(try Self.source(.jpeg), options: off, maxResolution: 1 << 24).text
        #expect(!without.contains("iptc") && !without.contains("photoshop"))
    }

    /// A TIFF carries the datasets alone (no Photoshop resources): `iptc` without `photoshop`.
    @Test func aTIFFsDatasets() throws {
        let json = try InfoReport.make(try Self.source(.tiff), options: InfoOptions(), maxResolution: 1 << 24).text
        #expect(json.contains(Self.expected) && !json.contains("photoshop"), "\(json)")
    }

    /// imgproxy's parser: bytes before a marker skipped, unknown datasets and sizes out of range left out, a repeated
    /// non-repeatable dataset the last, an extended length, a dataset cut short.
    @Test func datasetsAsImgproxyReadsThem() {
        let iim: [UInt8] =
            [0xAA, 0x1C, 2, 5, 0, 1, 65] + [0x1C, 2, 5, 0, 1, 66] + [0x1C, 2, 200, 0, 1, 1] + [0x1C, 2, 0, 0, 1, 9]
            + [0x1C, 2, 25, 0x80, 4, 0, 0, 0, 2, 75, 49] + [0x1C, 2, 25, 0, 9, 75]
        let found = IPTCDatasets.datasets(iim)
        #expect(found.count == 6)
        let resources = Data(Array("8BIM".utf8) + [4, 4, 0, 0, 0, 0, 0, UInt8(iim.count)] + iim)
        let text = JSONValue.object(IPTCFields.fields(resources)).text
        #expect(text == #"{"Keywords":["K1","K"],"Name":"B","Object Name":"B"}"#, "\(text)")
    }

    /// Mutated resources (bytes changed, cut, lengths made huge): no trap, and every value a dataset of the bytes.
    @Test func mutatedResourcesNeverTrap() {
        var generator = SplitMix(seed: 0x1B7C)
        let sample = [UInt8](Self.resources)
        for _ in 0..<SeededPropertyCount.cases(default: 2_000) {
            var bytes = Array(sample.prefix(Int(generator.next() % UInt64(sample.count + 1))))
            for _ in 0..<Int(generator.next() % 8) where !bytes.isEmpty {
                let at = Int(generator.next() % UInt64(bytes.count))
                let replacements: [UInt8] = [0x1C, 0x80, 0xFF, 0x00, 0x04, UInt8(truncatingIfNeeded: generator.next())]
                bytes[at] = replacements[Int(generator.next() % 6)]
            }
            let fields = IPTCFields.fields(Data(bytes)) + IPTCDatasets.photoshop(Data(bytes))
            #expect(JSONValue.object(fields).text.hasPrefix("{"))
            for (_, value) in IPTCDatasets.datasets(bytes) { #expect(value.count <= bytes.count) }
        }
    }

    @Test func throughTheServer() async throws {
        try await ServerHarness.run { harness in
            harness.origin.register(try Self.source(.jpeg), at: "/iptc.jpg", contentType: "image/jpeg")
            let response = try await harness.get(InfoServerTests.infoURL(harness, "iptc:1", "/iptc.jpg"))
            #expect(response.status == .ok)
            #expect(String(buffer: response.body).contains(Self.expected))
        }
    }
}
