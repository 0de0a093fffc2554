import ArgumentParser

#if canImport(Glibc)
    import Glibc
#endif

/// glibc's allocator settings for `webimage serve`, which owns its process (a library must not change them).
///
/// `tuned` (the default) caps the malloc arenas at two per core and raises the mmap and trim thresholds, as
/// docs/benchmarks.md measured: decoded images freed on another thread otherwise leave arenas that glibc trims and
/// refaults again, and every extra arena keeps its own high-water mark. `glibc` leaves glibc's defaults.
enum MemoryAllocator: String, CaseIterable, ExpressibleByArgument {
    case tuned, glibc

    // <malloc.h>'s parameter numbers (Swift's Glibc module does not import malloc.h).
    private static let trimThreshold: Int32 = -1
    private static let mmapThreshold: Int32 = -3
    private static let arenaMax: Int32 = -8

    /// Applies the settings; call once at start-up, before the server starts.
    func configure(cores: Int) {
        #if canImport(Glibc)
            guard self == .tuned, let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            _ = mallopt(Self.arenaMax, Int32(clamping: max(2, 2 * cores)))
            _ = mallopt(Self.mmapThreshold, 32 * 1024 * 1024)
            _ = mallopt(Self.trimThreshold, 128 * 1024 * 1024)
        #endif
    }

    /// Hands the free memory of every arena back to the system (glibc's `malloc_trim(0)`, which also releases free
    /// pages inside the heaps); `webimage serve` calls it once processing has gone idle, whatever the setting, so a
    /// burst's high-water mark does not stay resident.
    static func releaseFreeMemory() {
        #if canImport(Glibc)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
            typealias MallocTrim = @convention(c) (Int) -> Int32
            _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }
}
