import Foundation
import Testing
import WebImageTesting

/// The parameters that used to kill `webimage fetch` with a runtime trap (exit 132), and the wrong-but-not-crashing
/// cases of the robustness issue: each now ends with a documented status.
@Suite(.serialized) struct CLIRobustnessTests {
    private func fixture(_ name: String) -> String { Fixtures.directory.appendingPathComponent(name).path }

    @Test func tinyImagesAndExtremeAspectRatiosResize() async throws {
        try await CLI.withTemporaryDirectory { home in
            let cases: [[String]] = [
                [fixture("regressions/one_pixel.png"), "--resize", "37x211", "--fit", "cover"],
                [fixture("corpus/images/gen_baseline_420.jpg"), "--resize", "3x100000", "--fit", "cover"],
                [fixture("corpus/images/webp_small_31x13.webp")] + ["--resize", "37x211", "--fit", "cover"]
                    + ["--rotate", "90", "--blur", "2"],
                [fixture("regressions/two_by_one.gif"), "--resize", "37x211", "--fit", "cover", "--rotate", "90"]
                    + ["--blur", "2"],
                [fixture("regressions/two_by_two.png"), "--resize", "37x211", "--fit", "cover", "--rotate", "90"]
                    + ["--blur", "2"],
            ]
            for arguments in cases {
                let result = try await CLI.run(["fetch"] + arguments + ["-o", "out.png", "--no-cache"], home: home)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
            }
        }
    }

    @Test func hostileParametersAreTypedErrors() async throws {
        try await CLI.withTemporaryDirectory { home in
            let photo = fixture("corpus/images/gen_baseline_420.jpg")
            let blur = try await CLI.run(["fetch", photo, "--blur", "1e30", "-o", "a.png", "--no-cache"], home: home)
            #expect(blur.status == 64, "\(blur.stderr)")
            let huge = try await CLI.run(
                ["fetch", photo, "--resize", "30000x30000", "--fit", "fill", "-o", "b.png", "--no-cache"], home: home)
            #expect(huge.status == 65, "\(huge.stderr)")
            #expect(huge.stderr.contains("100000000"))
            #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("b.png").path))
            for quality in ["0", "101"] {
                let result = try await CLI.run(
                    ["fetch", photo, "--quality", quality, "-o", "c.jpg", "--no-cache"], home: home)
                #expect(result.status == 64, "quality \(quality)")
            }
            for name in HeaderRegressionTests.names {
                let result = try await CLI.run(
                    ["fetch", fixture("regressions/\(name)"), "--resize", "100x100", "-o", "d.png", "--no-cache"],
                    home: home)
                #expect(result.status == 65, "\(name): \(result.status) \(result.stderr)")
            }
        }
    }

    @Test func outputDirectoryIsCreatedAndWriteFailuresExit73() async throws {
        try await CLI.withTemporaryDirectory { home in
            let photo = fixture("corpus/images/gen_alpha.png")
            let nested = home.appendingPathComponent("a/b/c")
            let made = try await CLI.run(["fetch", photo, "--output-dir", nested.path, "--no-cache"], home: home)
            #expect(made.status == 0, "\(made.stderr)")
            #expect(FileManager.default.fileExists(atPath: nested.appendingPathComponent("gen_alpha.png").path))
            let file = home.appendingPathComponent("plain-file")
            try Data("x".utf8).write(to: file)
            let underFile = try await CLI.run(
                ["fetch", photo, "-o", file.appendingPathComponent("out.png").path, "--no-cache"], home: home)
            #expect(underFile.status == 73, "\(underFile.stderr)")
            #expect(underFile.stderr.contains("cannot write"))
            let dirUnderFile = try await CLI.run(
                ["fetch", photo, "--output-dir", file.appendingPathComponent("d").path, "--no-cache"], home: home)
            #expect(dirUnderFile.status == 73, "\(dirUnderFile.stderr)")
        }
    }
}
