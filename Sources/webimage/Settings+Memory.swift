/// The memory rows of ``Settings``: imgproxy's `IMGPROXY_FREE_MEMORY_INTERVAL` (whole seconds),
/// `IMGPROXY_LOG_MEM_STATS`, and libvips' debugging switches `IMGPROXY_VIPS_LEAK_CHECK` and
/// `IMGPROXY_VIPS_CACHE_TRACE`, which stand for the server's leak check and result-cache trace.
extension Settings {
    static let freeMemoryInterval = Setting<Double>(
        "free-memory-interval", .number, imgproxy: ["IMGPROXY_FREE_MEMORY_INTERVAL"], imgproxyParser: .seconds)
    static let logMemStats = Setting<Bool>("log-mem-stats", .boolean, imgproxy: ["IMGPROXY_LOG_MEM_STATS"])
    static let leakCheck = Setting<Bool>("vips-leak-check", .boolean, imgproxy: ["IMGPROXY_VIPS_LEAK_CHECK"])
    static let cacheTrace = Setting<Bool>("vips-cache-trace", .boolean, imgproxy: ["IMGPROXY_VIPS_CACHE_TRACE"])

    /// The memory settings, for ``all``.
    static let memory: [any SettingVariables] = [freeMemoryInterval, logMemStats, leakCheck, cacheTrace]
}
