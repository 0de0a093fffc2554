import ArgumentParser
import Foundation
import WebImage

/// `webimage demo`: the whole pipeline, offline and without files: sample images made in memory, a local HTTP server,
/// the caches, thumbnails and a contact sheet.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract:
            "Load sample images over local HTTP through the full pipeline, three passes, and show the caches at work.",
        discussion: """
            Makes sample images in memory with the library's encoders and TurboJPEG (baseline, progressive, 12 MP, \
            CMYK, grey and EXIF-rotated JPEGs, PNG and WebP with alpha, animated GIF, APNG, WebP and AVIF, a Display \
            P3 JPEG; HEIC, which the library decodes but cannot encode, is listed as not made) and serves them from \
            its own HTTP server on 127.0.0.1: no network and no files needed. Each image is loaded with a thumbnail \
            transform through ImageManager: pass 1 downloads, decodes (shrinking on load), resizes and stores in a \
            fresh temporary cache; pass 2 asks the same manager again (memory hits); pass 3 uses a new manager over \
            the same directory, as a new process would (disk hits). A table shows each load's source, format, sizes, \
            cache type and time per stage. The thumbnails and an HTML contact sheet (index.html) are written to \
            --output-dir. Exits 1 if a pass misses the cache.

            Examples:
              webimage demo
              webimage demo --output-dir /tmp/demo --size 200x200
            """)

    @Option(help: "Where to write the thumbnails and index.html.")
    var outputDir = "out/demo"

    @Option(help: ArgumentHelp("The thumbnail box (the image is fitted inside, keeping its aspect).", valueName: "WxH"))
    var size = "240x240"

    struct Row {
        let pass: Int
        let source: String
        let result: Result<ImageResult, WebImageError>
    }

    func run() async throws {
        let box = try Self.parseSize(size)
        let (samples, missing) = DemoSamples.make()
        let cacheDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("webimage-demo-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: cacheDirectory) }
        let rows = try await DemoImageServer.serving(samples) { baseURL in
            print("demo image server: \(baseURL)   cache: \(cacheDirectory.path)\n")
            return await Self.load(samples.map(\.name), from: baseURL, box: box, cacheDirectory: cacheDirectory)
        }

        let originals = Self.originalSizes(rows)
        print(Self.table(rows, originals: originals, missing: missing))
        let written = try writeThumbnails(rows.filter { $0.pass == 1 }, originals: originals)
        print(
            "\nwrote \(written) thumbnails and a contact sheet: \(URL(fileURLWithPath: outputDir).appendingPathComponent("index.html").path)"
        )

        let expected: [Int: ImageCacheType] = [1: .none, 2: .memory, 3: .disk]
        let wrong = rows.filter { row in (try? row.result.get().cacheType) != expected[row.pass] }
        if !wrong.isEmpty {
            printError(
                "webimage demo: \(wrong.count) loads did not come from where expected (pass 1 loads, 2 memory, 3 disk)")
            throw ExitCode.failure
        }
        print("pass 1 loaded every image, pass 2 answered from memory, pass 3 from disk.")
    }

    /// Loads every sample three times with a thumbnail transform: pass 1 from the server into a fresh cache, pass 2
    /// from the same manager's memory, pass 3 from a new manager's disk cache over the same directory.
    private static func load(_ names: [String], from baseURL: URL, box: PixelSize, cacheDirectory: URL) async -> [Row] {
        let resize = Resize(to: box, mode: .contain)
        let requests = names.map { ($0, ImageRequest(url: baseURL.appendingPathComponent($0), transformer: resize)) }
        func disk() -> DiskCache {
            DiskCache(directory: cacheDirectory, configuration: DiskCache.Configuration(sweepInterval: nil))
        }
        let first = ManagerFactory.manager(for: [baseURL], disk: disk())
        let second = ManagerFactory.manager(for: [baseURL], disk: disk())
        var rows: [Row] = []
        for (pass, manager) in [(1, first), (2, first), (3, second)] {
            if pass == 3 { await first.waitForPendingStores() }  // the first pass's disk writes run in the background
            for (name, request) in requests {
                do throws(WebImageError) {
                    rows.append(Row(pass: pass, source: name, result: .success(try await manager.image(for: request))))
                } catch {
                    rows.append(Row(pass: pass, source: name, result: .failure(error)))
                }
            }
        }
        await first.shutdown()
        await second.shutdown()
        return rows
    }

    /// The source's pixel size, from the bytes pass 1 loaded.
    private static func originalSizes(_ rows: [Row]) -> [String: String] {
        var sizes: [String: String] = [:]
        for row in rows where row.pass == 1 {
            guard let data = try? row.result.get().data, let info = try? ImageCoders.default.info(of: data) else {
                continue
            }
            sizes[row.source] = "\(info.uprightSize.width)x\(info.uprightSize.height)"
        }
        return sizes
    }

    /// The loads, pass by pass, then the samples that could not be made.
    private static func table(_ rows: [Row], originals: [String: String], missing: [DemoSamples.Missing]) -> String {
        let header = [
            "pass", "source", "format", "original", "thumbnail", "cache", "query ms", "load ms", "decode ms",
            "transform ms", "store ms", "total ms",
        ]
        let ms = { (seconds: Double) in seconds > 0 ? String(format: "%.2f", seconds * 1000) : "-" }
        let cells = rows.map { row -> [String] in
            switch row.result {
            case .success(let result):
                let image = result.image
                let m = result.metrics
                return [
                    "\(row.pass)", row.source, image?.format.name ?? "-", originals[row.source] ?? "-",
                    image.map { "\($0.width)x\($0.height)" + ($0.frames.count > 1 ? " ×\($0.frames.count)" : "") }
                        ?? "-",
                    result.cacheType.description, ms(m.cacheQuery), ms(m.load), ms(m.decode), ms(m.transform),
                    ms(m.store), ms(m.total),
                ]
            case .failure(let error):
                return ["\(row.pass)", row.source, "error: \(error)"] + Array(repeating: "", count: header.count - 3)
            }
        }
        let widths = header.indices.map { column in
            ([header] + cells).map { $0[column].count }.max() ?? 0
        }
        func line(_ row: [String]) -> String {
            row.enumerated().map { column, text in
                let pad = String(repeating: " ", count: max(0, widths[column] - text.count))
                return column >= 6 ? pad + text : text + pad
            }.joined(separator: "  ")
        }
        var lines = [line(header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")]
        var previousPass = 1
        for (row, cell) in zip(rows, cells) {
            if row.pass != previousPass { lines.append("") }
            previousPass = row.pass
            lines.append(line(cell))
        }
        if !missing.isEmpty { lines.append("") }
        for sample in missing {
            // Outside the column widths: a long reason would widen the format column of every row.
            let source = sample.name.padding(toLength: max(widths[1], sample.name.count), withPad: " ", startingAt: 0)
            lines.append("-" + String(repeating: " ", count: widths[0] + 1) + source + "  not made: \(sample.reason)")
        }
        return lines.joined(separator: "\n")
    }

    /// Writes each thumbnail (WebP for animations, else PNG) and `index.html`; returns how many were written.
    private func writeThumbnails(_ rows: [Row], originals: [String: String]) throws -> Int {
        let directory = URL(fileURLWithPath: outputDir, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            printError("webimage demo: cannot create \(outputDir): \(error.localizedDescription)")
            throw ExitStatus.output
        }
        var figures: [String] = []
        for row in rows {
            guard case .success(let result) = row.result, let image = result.image else { continue }
            let format: ImageFormat = image.isAnimated ? .webp : .png
            // `gen_anim.gif` → `gen_anim-gif.webp`: sources that differ only in extension keep apart.
            let source = URL(fileURLWithPath: row.source)
            let name =
                source.deletingPathExtension().lastPathComponent + "-" + source.pathExtension + "."
                + format.fileExtension
            do {
                let data = try ImageCoders.default.encode(
                    image, as: format, options: EncodingOptions(quality: 85, firstFrameOnly: false))
                try data.write(to: directory.appendingPathComponent(name), options: .atomic)
            } catch {
                printError("webimage demo: cannot write \(name): \(error)")
                throw ExitStatus.output
            }
            let caption =
                "\(row.source)<br>\(image.format.name) \(originals[row.source] ?? "") → \(image.width)x\(image.height)"
                + String(format: "<br>%.1f ms", result.metrics.total * 1000)
            figures.append(
                "<figure><img src=\"\(name)\" alt=\"\(row.source)\"><figcaption>\(caption)</figcaption></figure>")
        }
        let html = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>webimage demo</title>
            <style>
            body { font: 14px system-ui, sans-serif; margin: 2em; background: #f4f4f4; }
            main { display: flex; flex-wrap: wrap; gap: 1em; }
            figure { margin: 0; padding: .6em; background: #fff; border-radius: 6px; text-align: center;
              background-image: repeating-conic-gradient(#eee 0 25%, #fff 0 50%); background-size: 16px 16px; }
            figcaption { font-size: 12px; margin-top: .4em; background: #fff; }
            </style></head>
            <body><h1>webimage demo: thumbnails</h1>
            <p>Made in memory, loaded over HTTP from the demo's local server, decoded with shrink-on-load and resized to fit \(size).</p>
            <main>
            \(figures.joined(separator: "\n"))
            </main></body></html>

            """
        try Data(html.utf8).write(to: directory.appendingPathComponent("index.html"), options: .atomic)
        return figures.count
    }

    private static func parseSize(_ text: String) throws -> PixelSize {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
            throw ValidationError("--size takes WIDTHxHEIGHT, not '\(text)'")
        }
        return PixelSize(width: width, height: height)
    }
}
