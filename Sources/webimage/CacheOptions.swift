import ArgumentParser
import Foundation
import WebImage

/// `--cache-dir DIR`: the disk cache the commands share.
struct CacheOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The disk cache directory (default: $XDG_CACHE_HOME/swift-web-image/default, else ~/.cache/swift-web-image/default).",
            valueName: "dir"))
    var cacheDir: String?

    /// The directory `--cache-dir` names, or the library's default one.
    var directory: URL {
        cacheDir.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? DiskCache.defaultDirectory(namespace: "default")
    }

    /// The disk cache in ``directory``, without a background sweeper (a command runs briefly; `cache clean` sweeps).
    func diskCache() -> DiskCache {
        DiskCache(directory: directory, configuration: DiskCache.Configuration(sweepInterval: nil))
    }
}

/// Builds the ``ImageManager`` of a command: only the loaders its sources need, and a disk cache unless disabled.
enum ManagerFactory {
    /// A manager for `urls`; with `disk` `nil` it caches in memory only, for this process. `pngGamma` converts PNGs
    /// described by `gAMA`/`cHRM` alone, as browsers do.
    static func manager(for urls: [URL], disk: DiskCache?, pngGamma: Bool = true) -> ImageManager {
        var loaders: [any ImageLoading] = [FileImageLoader(), DataURLImageLoader()]
        // The HTTP client starts event-loop threads: only pay for it when a source needs it.
        if urls.contains(where: HTTPImageLoader.canLoadScheme(of:)) { loaders.insert(HTTPImageLoader(), at: 0) }
        let cache: any ImageCaching = disk.map { ImageCache(disk: $0) } ?? MemoryImageCache()
        return ImageManager(
            configuration: ImageManager.Configuration(
                loader: ImageLoaders(loaders), cache: cache, appliesPNGGamma: pngGamma))
    }

    /// The URL of a command-line source: a path, or a `file://`, `http(s)://` or `data:` URL.
    static func url(for source: String) throws(WebImageError) -> URL {
        guard let url = FileImageLoader.url(for: source) ?? URL(string: source), url.scheme != nil else {
            throw WebImageError(.invalidSource, "'\(source)' is neither a path nor a URL")
        }
        return url
    }

    /// Loader settings for `url`: the timeout, and local bytes left for the decoder to judge.
    static func loaderOptions(for url: URL, timeout: Double?) -> ImageLoaderOptions {
        var options = ImageLoaderOptions()
        if let timeout { options.timeout = .milliseconds(Int((timeout * 1000).rounded())) }
        if !HTTPImageLoader.canLoadScheme(of: url) { options.responseValidator = .acceptAll }
        return options
    }
}

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

extension Duration {
    /// The duration in (fractional) seconds.
    var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
