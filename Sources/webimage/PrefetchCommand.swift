import ArgumentParser
import Dispatch
import Foundation
import WebImage

#if canImport(Glibc)
    import Glibc
#endif

/// `webimage prefetch [URL… | --file LIST]`: warm the disk cache at low priority, with progress and Ctrl-C.
struct PrefetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefetch",
        abstract: "Download images into the disk cache so later loads are answered from it.",
        discussion: """
            The bytes are stored as loaded (not decoded), at low priority, a few at a time. On a terminal a live \
            progress bar shows the count, bytes, rate and time left; otherwise one line per finished source is \
            printed. A summary ends the run. Ctrl-C cancels the loads in flight, prints the summary and exits 130. \
            Sources already on disk count as cached and are not downloaded again.

            \(ExitStatus.help)

            Examples:
              webimage prefetch https://example.com/a.jpg https://example.com/b.webp
              webimage prefetch --file urls.txt --concurrency 8 --cache-dir /tmp/thumbs
            """)

    @Argument(help: "URLs (or paths) to prefetch.")
    var urls: [String] = []

    @Option(
        help: ArgumentHelp(
            "A file of URLs, one per line (lines starting with '#' are comments; '-' reads standard input).",
            valueName: "list"))
    var file: String?

    @OptionGroup var cache: CacheOptions

    @Option(help: "How many loads run at once.")
    var concurrency: Int = 4

    @Option(help: "Seconds a load may take once started (default 15).")
    var timeout: Double?

    @Flag(help: "Load sources that failed permanently before in this run (retryFailed).")
    var retryFailed = false

    func validate() throws {
        if urls.isEmpty && file == nil { throw ValidationError("give URLs or --file LIST") }
        if concurrency < 1 { throw ValidationError("--concurrency must be at least 1") }
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    func run() async throws {
        let sources: [String]
        do {
            sources = try urls + (file.map(Self.readList) ?? [])
        } catch {
            printError("webimage: cannot read \(file ?? "-"): \(error.localizedDescription)")
            throw ExitStatus.usage
        }
        let requests = sources.map { source in
            (
                source,
                Result { () throws(WebImageError) -> ImageRequest in
                    let url = try ManagerFactory.url(for: source)
                    var options: ImageOptions = [.lowPriority, .avoidDecode]
                    if retryFailed { options.insert(.retryFailed) }
                    return ImageRequest(
                        url: url, options: options,
                        loaderOptions: ManagerFactory.loaderOptions(for: url, timeout: timeout))
                }
            )
        }
        let manager = ManagerFactory.manager(
            for: requests.compactMap { try? $0.1.get().url }, disk: cache.diskCache())
        let progress = PrefetchProgress(total: requests.count, terminal: isatty(STDERR_FILENO) == 1)

        let work = Task(priority: .low) { [concurrency] in
            await Self.prefetch(requests, manager: manager, concurrency: concurrency, progress: progress)
        }
        let interrupt = Self.onInterrupt {
            progress.interrupted()
            work.cancel()
        }
        let failures = await work.value
        interrupt.cancel()
        await manager.shutdown()
        progress.finish()
        if progress.wasInterrupted { throw ExitStatus.interrupted }
        if let first = failures.first { throw ExitStatus.status(for: first) }
    }

    /// Loads every request, at most `concurrency` at once; returns the failures (not cancellations).
    private static func prefetch(
        _ requests: [(String, Result<ImageRequest, WebImageError>)], manager: ImageManager, concurrency: Int,
        progress: PrefetchProgress
    ) async -> [WebImageError] {
        @Sendable func load(_ source: String, _ request: Result<ImageRequest, WebImageError>) async -> WebImageError? {
            do throws(WebImageError) {
                let result = try await manager.image(for: try request.get())
                progress.finished(source, bytes: result.data?.count ?? 0, cacheType: result.cacheType)
                return nil
            } catch {
                if error.code == .cancelled && Task.isCancelled { return nil }
                progress.failed(source, error: error)
                return error
            }
        }
        return await withTaskGroup(of: WebImageError?.self) { group in
            var pending = requests.makeIterator()
            var failures: [WebImageError] = []
            for _ in 0..<concurrency {
                guard let (source, request) = pending.next() else { break }
                group.addTask(priority: .low) { await load(source, request) }
            }
            while let failure = await group.next() {
                if let failure { failures.append(failure) }
                if !Task.isCancelled, let (source, request) = pending.next() {
                    group.addTask(priority: .low) { await load(source, request) }
                }
            }
            return failures
        }
    }

    /// Calls `handler` on SIGINT instead of dying; cancel the returned source to restore nothing else.
    private static func onInterrupt(_ handler: @escaping @Sendable () -> Void) -> any DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler(handler: handler)
        source.resume()
        return source
    }

    private static func readList(_ path: String) throws -> [String] {
        let data =
            path == "-"
            ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: path))
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty || trimmed.hasPrefix("#") ? nil : trimmed
        }
    }
}
