import Foundation
import Testing
import WebImageTesting

/// Replays, through the fuzz targets' own entry points (``FuzzEntries``), every input a fuzzer crashed on
/// (`Tests/Fixtures/fuzz-regressions/<target>/`), then the seed corpus through every entry point. A crash here is a
/// crash of the test process, so a regression cannot pass silently.
@Suite struct FuzzRegressionTests {
    static let entries: [String: @Sendable (Data) -> Void] = [
        "fuzz-decode": FuzzEntries.decode, "fuzz-thumbnail": FuzzEntries.thumbnail, "fuzz-info": FuzzEntries.info,
        "fuzz-partial": FuzzEntries.partial, "fuzz-transform": FuzzEntries.transform, "fuzz-url": FuzzEntries.url,
        "fuzz-info-url": FuzzEntries.infoURL,
        "fuzz-jxl": FuzzEntries.jxl,
        "fuzz-svg": FuzzEntries.svg,
    ]

    private static func files(in directory: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().map { directory.appendingPathComponent($0) }
    }

    @Test func crashingInputsStayFixed() throws {
        let root = Fixtures.directory.appendingPathComponent("fuzz-regressions")
        for (target, entry) in Self.entries {
            for file in Self.files(in: root.appendingPathComponent(target)) { entry(try Data(contentsOf: file)) }
        }
    }

    @Test func seedCorpusRunsThroughEveryEntryPoint() throws {
        let seeds =
            Self.files(in: Fixtures.corpus.appendingPathComponent("images"))
            + Self.files(in: Fixtures.directory.appendingPathComponent("formats/images"))
            + Self.files(in: Fixtures.directory.appendingPathComponent("regressions"))
        let images = seeds.filter { $0.pathExtension != "py" }
        #expect(images.count > 150)
        // Every file through the cheap entries; the transform entry, which resamples, over small files only.
        for (index, file) in images.enumerated() {
            let data = try Data(contentsOf: file)
            FuzzEntries.decode(data)
            FuzzEntries.info(data)
            FuzzEntries.thumbnail(Data([64, 49]) + data)
            FuzzEntries.partial(Data([127]) + data)
            if file.pathExtension == "jxl" { FuzzEntries.jxl(data) }
            if file.pathExtension == "svg" { FuzzEntries.svg(Data([63, 47]) + data) }
            if data.count < 20_000 {
                FuzzEntries.transform(Data((0..<12).map { UInt8(($0 * 37 + index) % 256) }) + data)
            }
        }
    }
}
