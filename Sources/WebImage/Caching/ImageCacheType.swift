/// Which cache tier: where a query found an image, or which tiers an operation should touch.
///
/// A struct option set rather than an enum, so that tiers can be added without breaking callers. A query result
/// names exactly one tier (``memory`` or ``disk``); operations take a set (``all`` by default).
public struct ImageCacheType: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    /// Creates a set of tiers from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// No tier: not cached, or an operation that touches nothing.
    public static let none: ImageCacheType = []
    /// The in-memory tier (``MemoryImageCache``).
    public static let memory = ImageCacheType(rawValue: 1 << 0)
    /// The on-disk tier (``DiskCache``).
    public static let disk = ImageCacheType(rawValue: 1 << 1)
    /// Memory and disk.
    public static let all: ImageCacheType = [.memory, .disk]

    public var description: String {
        switch self {
        case .none: "none"
        case .memory: "memory"
        case .disk: "disk"
        case .all: "all"
        default: "ImageCacheType(rawValue: \(rawValue))"
        }
    }
}
