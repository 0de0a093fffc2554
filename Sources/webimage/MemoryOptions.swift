import ArgumentParser
import Logging
import WebImageServer

/// `webimage serve`'s memory ticker, as imgproxy's: every `--free-memory-interval` seconds the allocator's free memory
/// goes back to the system, and with `--log-mem-stats` the process's memory is logged at `debug`; and the
/// counterparts of libvips' debugging switches: a leak check at shutdown and a trace of the result cache.
struct MemoryOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Seconds between two returns of free memory to the system (default: 10; IMGPROXY_FREE_MEMORY_INTERVAL).",
            valueName: "SECONDS"))
    var freeMemoryInterval: Double?
    @Flag(
        inversion: .prefixedNo,
        help: "Log the process's memory at debug level at each interval (default: off; IMGPROXY_LOG_MEM_STATS).")
    var logMemStats: Bool?
    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "After a shutdown, log what is still held and the peak memory, as libvips' leak check (default: off; "
                + "IMGPROXY_VIPS_LEAK_CHECK)."))
    var vipsLeakCheck: Bool?
    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Log each lookup, store and purge of the result cache, as libvips' cache trace (default: off; "
                + "IMGPROXY_VIPS_CACHE_TRACE)."))
    var vipsCacheTrace: Bool?

    /// Sets the leak check and the cache trace.
    func apply(to configuration: inout ImageServerConfiguration) throws {
        configuration.checksLeaks = try Settings.leakCheck.resolve(vipsLeakCheck) ?? false
        configuration.tracesCache = try Settings.cacheTrace.resolve(vipsCacheTrace) ?? false
    }

    /// The ticker these options describe, logging through `logger`.
    func ticker(logger: Logger) throws -> MemoryTicker {
        let seconds = try Settings.freeMemoryInterval.resolve(freeMemoryInterval) ?? 10
        // imgproxy refuses a zero or negative interval; a huge one would overflow the Duration.
        guard seconds > 0, seconds <= 86_400 else {
            throw ValidationError("--free-memory-interval must be more than 0 and at most 86400 seconds")
        }
        return MemoryTicker(
            interval: .milliseconds(Int64(seconds * 1000)),
            logsStatistics: try Settings.logMemStats.resolve(logMemStats) ?? false,
            logger: logger)
    }
}
