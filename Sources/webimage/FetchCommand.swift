import ArgumentParser
import Foundation
import WebImage

/// `webimage fetch SOURCE… [-o OUT | --output-dir DIR]`: load (through the caches), decode, transform and write images.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Load and decode images, transform them, and write them out.",
        discussion: """
            SOURCE is a file path, a file:// or http(s):// URL, or a data: URI. The output format follows --format, else the extension of \
            OUT (.png, .jpg, .webp); animations keep their frames in WebP and lose all but the first in PNG and JPEG. \
            With several sources, --output-dir names each output after its source and processes them in parallel. \
            A resize decodes no larger than needed (JPEG DCT scaling, WebP decoder scaling) before resampling.

            Every load goes through the image manager and its disk cache (--cache-dir, default \
            ~/.cache/swift-web-image/default): the original bytes and the transformed image are stored, so running the \
            same command again is answered from disk (cacheType "disk" in --json). --no-cache turns the cache off, \
            --refresh revalidates cached bytes with the server (ETag / Last-Modified).

            \(ExitStatus.help)

            Examples:
              webimage fetch photo.jpg -o photo.png
              webimage fetch photo.jpg --resize 720x588 --fit fill --quality 80 -o thumb.jpg --no-cache
              webimage fetch https://example.com/a.webp --resize 256x256 -o a.png --json
              webimage fetch *.jpg --resize 256x256 --output-dir thumbs --format webp --concurrency 4 --json
            """
    )

    @Argument(help: "The images to load: paths, file:// or http(s):// URLs, or data: URIs.")
    var sources: [String]

    @Option(help: "Seconds a load may take once started (default 15).")
    var timeout: Double?

    @Option(name: .shortAndLong, help: "Where to write the image (one source only); its extension picks the format.")
    var output: String?

    @Option(help: "Directory to write every output into, named after its source.")
    var outputDir: String?

    @Option(
        help: """
            Output format: jpeg, png, webp, gif, avif, jxl, heic, bmp, ico or tiff (default: from -o's extension, or \
            the source's format).
            """)
    var format: String?

    @Option(help: "Quality for JPEG and lossy WebP output, 1 to 100.")
    var quality: Int = 80

    @Flag(help: "Write a progressive JPEG or an interlaced PNG.")
    var progressive = false

    @Option(help: "Write a PNG as a palette of at most this many colours, 2 to 256 (libimagequant, dithered).")
    var paletteColors: Int?

    @OptionGroup var transforms: TransformOptions

    @OptionGroup var cache: CacheOptions

    @Flag(help: "Do not read or write the disk cache.")
    var noCache = false

    @Flag(
        inversion: .prefixedNo,
        help: "Convert PNGs described only by gAMA/cHRM to sRGB, as browsers do (default: on; off as imgproxy).")
    var pngGamma = true

    @Flag(help: "Revalidate cached bytes with the server instead of trusting them (refreshCached).")
    var refresh = false

    @Flag(help: "Load sources that failed permanently before in this run (retryFailed).")
    var retryFailed = false

    @Option(help: "How many sources to process at once.")
    var concurrency: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(
        help: """
            Print one JSON object per source: {source, format, width, height, frames, bytes, output, outputBytes, \
            cacheType (none/memory/disk), timings {cacheQuery, load, decode, transform, store, total} in seconds}.
            """)
    var json = false

    func validate() throws {
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
        if !(1...100).contains(quality) { throw ValidationError("--quality must be from 1 to 100, not \(quality)") }
        if let paletteColors, !(2...256).contains(paletteColors) {
            throw ValidationError("--palette-colors must be from 2 to 256, not \(paletteColors)")
        }
        if noCache && cache.cacheDir != nil { throw ValidationError("give either --cache-dir or --no-cache, not both") }
    }

    func run() async throws {
        let jobs: [FetchJob]
        do {
            jobs = try makeJobs()
        } catch {
            printError("webimage: \(error.message)")
            throw ExitStatus.usage
        }
        if let outputDir {
            do {
                try FileManager.default.createDirectory(atPath: outputDir, withIntermediateDirectories: true)
            } catch {
                printError("webimage: cannot create --output-dir \(outputDir): \(error.localizedDescription)")
                throw ExitStatus.output
            }
        }
        let urls = jobs.compactMap { try? $0.request.get().url }
        let manager = ManagerFactory.manager(for: urls, disk: noCache ? nil : cache.diskCache(), pngGamma: pngGamma)
        let results = await BatchRunner.run(jobs, manager: manager, concurrency: max(concurrency, 1))
        await manager.shutdown()
        var failure: ExitCode?
        for (job, result) in zip(jobs, results) {
            switch result {
            case .success(let report):
                if json { print(try Self.encode(report)) }
            case .failure(let error):
                printError("webimage: \(job.source): \(error)")
                failure = failure ?? ExitStatus.status(for: error)
            }
        }
        if let failure { throw failure }
    }

    private func makeJobs() throws(WebImageError) -> [FetchJob] {
        guard !(output != nil && outputDir != nil) else {
            throw WebImageError(.invalidArgument, "give either -o or --output-dir, not both")
        }
        guard output == nil || sources.count == 1 else {
            throw WebImageError(.invalidArgument, "-o takes one source; use --output-dir for several")
        }
        let explicit = try format.map { (name: String) throws(WebImageError) -> ImageFormat in
            guard let format = ImageFormat(fileExtension: name), ImageCoders.default.canEncode(format) else {
                throw WebImageError(
                    .invalidArgument,
                    "--format takes jpeg, png, webp, gif, avif, jxl, heic, bmp, ico or tiff, not '\(name)'")
            }
            return format
        }
        _ = try transforms.resizeTransformer()  // validates --fit
        let pipeline = try transforms.pipeline()
        var options: ImageOptions = []
        if refresh { options.insert(.refreshCached) }
        if retryFailed { options.insert(.retryFailed) }
        return sources.map { source in
            let request = Result { () throws(WebImageError) -> ImageRequest in
                let url = try ManagerFactory.url(for: source)
                var made = ImageRequest(
                    url: url, options: options,
                    loaderOptions: ManagerFactory.loaderOptions(for: url, timeout: timeout))
                // A lone transformer is the transformer itself (its key is the cache key's suffix).
                if let pipeline {
                    made.transformer = pipeline.transformers.count == 1 ? pipeline.transformers[0] : pipeline
                }
                if noCache { made.cachePolicy = ImageCachePolicy(query: .none, store: .none) }
                return made
            }
            return FetchJob(
                source: source, request: request, output: outputPath(for: source, format: explicit),
                outputFormat: explicit,
                encoding: EncodingOptions(quality: quality, progressive: progressive, paletteColors: paletteColors))
        }
    }

    private func outputPath(for source: String, format: ImageFormat?) -> String? {
        guard let outputDir else { return output }
        let name = URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent
        let sourceFormat = ImageFormat(fileExtension: URL(fileURLWithPath: source).pathExtension)
        let chosen = format ?? sourceFormat.flatMap { ImageCoders.default.canEncode($0) ? $0 : nil } ?? .png
        return URL(fileURLWithPath: outputDir).appendingPathComponent("\(name).\(chosen.fileExtension)").path
    }

    private static func encode(_ report: FetchJob.Report) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }
}
