import Foundation
import Testing
import WebImageTesting

@Suite("CLI: webimage fetch, info")
struct CLIFetchTests {
    @Test func fetchWritesAThumbnailAndReportsJSON() async throws {
        try await CLI.withServer { server, home in
            let output = home.appendingPathComponent("thumb.png")
            let result = try await CLI.run(
                [
                    "fetch", CLI.corpusURL(server, "gen_baseline_420.jpg"), "--resize", "64x48", "--fit", "cover",
                    "-o", output.path, "--cache-dir", home.appendingPathComponent("cache").path, "--json",
                ], home: home)
            #expect(result.status == 0, "\(result.stderr)")
            let report = try #require(result.jsonLines.first)
            #expect(report["format"] as? String == "jpeg")
            #expect(report["width"] as? Int == 64)
            #expect(report["height"] as? Int == 48)
            #expect(report["cacheType"] as? String == "none")
            #expect((report["bytes"] as? Int ?? 0) > 0)
            let timings = try #require(report["timings"] as? [String: Double])
            #expect(Set(timings.keys) == ["cacheQuery", "load", "decode", "transform", "store", "total"])
            #expect(timings["load"]! > 0 && timings["decode"]! > 0 && timings["total"]! >= timings["decode"]!)
            #expect(FileManager.default.fileExists(atPath: output.path))
        }
    }

    @Test func secondRunIsADiskCacheHit() async throws {
        try await CLI.withServer { server, home in
            let cache = home.appendingPathComponent("cache").path
            let source = CLI.corpusURL(server, "gen_alpha.png")
            let arguments = ["fetch", source, "--resize", "32x32", "--cache-dir", cache, "--json"]
            let first = try await CLI.run(arguments, home: home)
            let second = try await CLI.run(arguments, home: home)
            #expect(first.status == 0 && second.status == 0, "\(first.stderr)\(second.stderr)")
            #expect(first.jsonLines.first?["cacheType"] as? String == "none")
            #expect(second.jsonLines.first?["cacheType"] as? String == "disk")
            #expect(server.requestCount("/fixtures/corpus/images/gen_alpha.png") == 1)
            // --no-cache loads again; --refresh revalidates with the server.
            let uncached = try await CLI.run(["fetch", source, "--no-cache", "--json"], home: home)
            #expect(uncached.jsonLines.first?["cacheType"] as? String == "none")
            #expect(server.requestCount("/fixtures/corpus/images/gen_alpha.png") == 2)
        }
    }

    @Test func usageErrorsExit64() async throws {
        try await CLI.withTemporaryDirectory { home in
            let image = Fixtures.corpus.appendingPathComponent("images/gen_alpha.png").path
            let twoToOne = try await CLI.run(["fetch", image, image, "-o", "x.png", "--no-cache"], home: home)
            #expect(twoToOne.status == 64)
            let badFit = try await CLI.run(
                ["fetch", image, "--resize", "10x10", "--fit", "squash", "--no-cache"], home: home)
            #expect(badFit.status == 64)
            let unknownFlag = try await CLI.run(["fetch", image, "--bogus"], home: home)
            #expect(unknownFlag.status == 64)
        }
    }

    @Test func corruptFileExits65() async throws {
        try await CLI.withTemporaryDirectory { home in
            for name in ["gen_random.bin", "gen_truncated_half.jpg"] {
                let path = Fixtures.corpus.appendingPathComponent("images/\(name)").path
                let result = try await CLI.run(["fetch", path, "-o", "out.png", "--no-cache"], home: home)
                #expect(result.status == 65, "\(name): \(result.stderr)")
            }
        }
    }

    @Test func missingSourcesExit66AndBatchesReportEachFailure() async throws {
        try await CLI.withServer { server, home in
            let missing = server.url("/status/404").absoluteString
            let alone = try await CLI.run(["fetch", missing, "--no-cache"], home: home)
            #expect(alone.status == 66)
            let good = CLI.corpusURL(server, "gen_still.gif")
            let batch = try await CLI.run(
                ["fetch", good, missing, "--output-dir", home.path, "--no-cache", "--json"], home: home)
            #expect(batch.status == 66)
            #expect(batch.jsonLines.map { $0["source"] as? String } == [good])
            #expect(batch.stderr.contains(missing))
            #expect(!batch.stderr.contains(good))
        }
    }

    @Test func infoReadsTheHeaderAndDurationsOnRequest() async throws {
        try await CLI.withTemporaryDirectory { home in
            let gif = Fixtures.corpus.appendingPathComponent("images/gen_anim.gif").path
            let header = try await CLI.run(["info", gif, "--json"], home: home)
            #expect(header.status == 0, "\(header.stderr)")
            let info = try #require(header.jsonLines.first)
            #expect(info["format"] as? String == "gif")
            #expect(info["durations"] == nil)
            let decoded = try await CLI.run(["info", gif, "--durations", "--json"], home: home)
            let durations = try #require(decoded.jsonLines.first?["durations"] as? [Double])
            #expect(durations.count == decoded.jsonLines.first?["frames"] as? Int)
            #expect(durations.count > 1 && durations.allSatisfy { $0 > 0 })
            let rotated = Fixtures.corpus.appendingPathComponent("images/exif_Landscape_6.jpg").path
            let text = try await CLI.run(["info", rotated], home: home)
            #expect(text.stdout.contains("orientation:"))
            #expect(!text.stdout.contains("orientation: up"))
            let corrupt = try await CLI.run(
                ["info", Fixtures.corpus.appendingPathComponent("images/gen_random.bin").path], home: home)
            #expect(corrupt.status == 65)
        }
    }
}
