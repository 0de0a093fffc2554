import Logging

/// One `cache trace` log line for each lookup, store and purge of the result tiers (`--vips-cache-trace`, imgproxy's
/// `IMGPROXY_VIPS_CACHE_TRACE`): the counterpart of libvips' operation-cache trace, which prints each operation the
/// cache finds or adds. The results are this server's operation cache: a line names the event, the tier and the
/// result's key (its file name in the disk tier).
struct CacheTrace: Sendable {
    /// What happened to a result.
    enum Event: String, Sendable {
        /// Found in a tier.
        case hit
        /// In no tier: it is made (or a run in flight is joined).
        case miss
        /// Kept in a tier.
        case store
        /// Dropped from the tiers by a purge.
        case purge
    }

    let logger: Logger

    /// Logs `event` for `key` in `tier` (`memory`, `disk`, `shared`; none for a miss or a purge), at `info`.
    func record(_ event: Event, _ key: ResultKey, tier: String? = nil) {
        var metadata: Logger.Metadata = ["event": "\(event.rawValue)", "key": "\(key.hex)"]
        if let tier { metadata["tier"] = "\(tier)" }
        logger.info("cache trace", metadata: metadata)
    }
}
