/// The memory rows of ``Settings``: imgproxy's `IMGPROXY_FREE_MEMORY_INTERVAL` (whole seconds) and
/// `IMGPROXY_LOG_MEM_STATS`.
extension Settings {
    static let freeMemoryInterval = Setting<Double>(
        "free-memory-interval", .number, imgproxy: ["IMGPROXY_FREE_MEMORY_INTERVAL"], imgproxyParser: .seconds)
    static let logMemStats = Setting<Bool>("log-mem-stats", .boolean, imgproxy: ["IMGPROXY_LOG_MEM_STATS"])

    /// The memory settings, for ``all``.
    static let memory: [any SettingVariables] = [freeMemoryInterval, logMemStats]
}
