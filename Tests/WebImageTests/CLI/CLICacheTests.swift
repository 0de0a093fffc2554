import Foundation
import Testing
import WebImageTesting

@Suite("CLI: webimage prefetch, cache, demo")
struct CLICacheTests {
    @Test func prefetchPrintsPlainProgressWhenNotATerminalAndWarmsTheCache() async throws {
        try await CLI.withServer { server, home in
            let cache = home.appendingPathComponent("cache").path
            let names = ["gen_baseline_420.jpg", "gen_alpha.png", "gen_anim.webp"]
            let list = home.appendingPathComponent("urls.txt")
            try Data(("# comment\n" + names.dropFirst().map { CLI.corpusURL(server, $0) + "\n" }.joined()).utf8).write(
                to: list)
            let result = try await CLI.run(
                ["prefetch", CLI.corpusURL(server, names[0]), "--file", list.path, "--cache-dir", cache], home: home)
            #expect(result.status == 0, "\(result.stderr)")
            for index in 1...3 { #expect(result.stderr.contains("[\(index)/3] loaded")) }
            #expect(!result.stderr.contains("\u{1B}["), "no terminal escapes when not a terminal")
            #expect(result.stdout.contains("prefetched 3 of 3: 3 downloaded, 0 already cached, 0 failed"))
            let fetch = try await CLI.run(
                ["fetch", CLI.corpusURL(server, names[1]), "--cache-dir", cache, "--json"], home: home)
            #expect(fetch.jsonLines.first?["cacheType"] as? String == "disk")
            #expect(server.requestCount("/fixtures/corpus/images/gen_alpha.png") == 1)
        }
    }

    @Test func prefetchReportsFailuresAndInterruptExits130() async throws {
        try await CLI.withServer { server, home in
            let cache = home.appendingPathComponent("cache").path
            let failing = try await CLI.run(
                [
                    "prefetch", server.url("/status/404").absoluteString, CLI.corpusURL(server, "gen_gray.jpg"),
                    "--cache-dir", cache,
                ],
                home: home)
            #expect(failing.status == 66)
            #expect(failing.stdout.contains("1 downloaded, 0 already cached, 1 failed"))
            let slow = (1...4).map { server.url("/generated/slow\($0)?delay=20000").absoluteString }
            let start = ContinuousClock.now
            let interrupted = try await CLI.run(
                ["prefetch"] + slow + ["--cache-dir", cache], home: home, interruptAfter: 2)
            #expect(interrupted.status == 130, "\(interrupted.stderr)")
            #expect(interrupted.stdout.contains("interrupted after 0 of 4"))
            #expect(ContinuousClock.now - start < .seconds(15))
        }
    }

    @Test func cacheInfoCleanAndClear() async throws {
        try await CLI.withServer { server, home in
            let cache = home.appendingPathComponent("cache").path
            for name in ["gen_gray.jpg", "gen_still.gif"] {
                let fetch = try await CLI.run(
                    ["fetch", CLI.corpusURL(server, name), "--resize", "16x16", "--cache-dir", cache], home: home)
                #expect(fetch.status == 0, "\(fetch.stderr)")
            }
            func info() async throws -> [String: Any] {
                let result = try await CLI.run(["cache", "info", "--cache-dir", cache, "--json"], home: home)
                #expect(result.status == 0, "\(result.stderr)")
                return try #require(result.jsonLines.first)
            }
            let full = try await info()
            #expect(full["count"] as? Int == 4, "original bytes and thumbnail of each")
            #expect((full["bytes"] as? Int ?? 0) > 0)
            #expect(full["oldest"] is String)
            // Nothing is expired or over the limit: clean keeps everything; with a small limit it trims.
            _ = try await CLI.run(["cache", "clean", "--cache-dir", cache], home: home)
            #expect(try await info()["count"] as? Int == 4)
            let trim = try await CLI.run(["cache", "clean", "--cache-dir", cache, "--max-size", "1"], home: home)
            #expect(trim.status == 0 && trim.stdout.contains("4 trimmed"), "\(trim.stdout)")
            #expect(try await info()["count"] as? Int == 0)
            _ = try await CLI.run(["fetch", CLI.corpusURL(server, "gen_gray.jpg"), "--cache-dir", cache], home: home)
            #expect(try await info()["count"] as? Int == 1)
            let clear = try await CLI.run(["cache", "clear", "--cache-dir", cache], home: home)
            #expect(clear.status == 0 && clear.stdout.contains("removed 1 entries"))
            let empty = try await info()
            #expect(empty["count"] as? Int == 0)
            #expect(empty["oldest"] is NSNull)
        }
    }

    @Test func demoRunsOfflineAndShowsCacheHits() async throws {
        try await CLI.withTemporaryDirectory { home in
            let result = try await CLI.run(["demo", "--output-dir", "sheet", "--size", "64x64"], home: home)
            #expect(result.status == 0, "\(result.stderr)")
            let rows = result.stdout.split(separator: "\n")
            #expect(rows.filter { $0.hasPrefix("2 ") && $0.contains(" memory ") }.count == 20)
            #expect(rows.filter { $0.hasPrefix("3 ") && $0.contains(" disk ") }.count == 20)
            let sheet = home.appendingPathComponent("sheet")
            let files = try FileManager.default.contentsOfDirectory(atPath: sheet.path)
            #expect(files.contains("index.html"))
            #expect(files.filter { $0.hasSuffix(".png") || $0.hasSuffix(".webp") }.count == 20)
            let html = try String(contentsOf: sheet.appendingPathComponent("index.html"), encoding: .utf8)
            #expect(html.components(separatedBy: "<img ").count - 1 == 20)
            // Every sample is made, the HEIC one through libheif's x265 plugin and the JPEG XL one through libjxl.
            #expect(!rows.contains { $0.hasPrefix("- ") && $0.contains("not made") }, "\(result.stdout)")
        }
    }

    /// The executable copied alone into an empty directory and run from another: the demo makes its samples and
    /// serves them itself, so it needs neither the checkout nor resources beside the executable.
    @Test func demoRunsFromAnInstalledCopy() async throws {
        try await CLI.withTemporaryDirectory { install in
            try await CLI.withTemporaryDirectory { home in
                let built = try #require(CLI.executable, "the webimage executable was not built next to the tests")
                let copy = install.appendingPathComponent("webimage")
                try FileManager.default.copyItem(at: built, to: copy)
                #expect(try FileManager.default.contentsOfDirectory(atPath: install.path) == ["webimage"])
                let out = install.appendingPathComponent("out")
                let result = try await CLI.run(["demo", "--output-dir", out.path], home: home, installed: copy)
                #expect(result.status == 0, "\(result.stderr)")
                let rows = result.stdout.split(separator: "\n")
                for (pass, cache) in [(1, "none"), (2, "memory"), (3, "disk")] {
                    #expect(rows.filter { $0.hasPrefix("\(pass) ") && $0.contains(" \(cache) ") }.count == 20)
                }
                #expect(
                    result.stdout.contains("pass 1 loaded every image, pass 2 answered from memory, pass 3 from disk."))
                #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("index.html").path))
            }
        }
    }
}
