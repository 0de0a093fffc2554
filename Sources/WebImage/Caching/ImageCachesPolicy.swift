/// How ``ImageCaches`` runs one kind of operation over its caches (SDWebImage's `SDImageCachesManagerOperationPolicy`).
///
/// A struct with static members rather than an enum, so that policies can be added without breaking callers.
public struct ImageCachesPolicy: Hashable, Sendable, CustomStringConvertible {
    private enum Value: Hashable, Sendable { case serial, concurrent, highestOnly, lowestOnly }
    private let value: Value

    /// One cache after another, highest priority first; a query or `contains` stops at the first hit, a store at
    /// the first error.
    public static let serial = ImageCachesPolicy(value: .serial)
    /// All caches at once; a query or `contains` answers with the first hit to arrive.
    public static let concurrent = ImageCachesPolicy(value: .concurrent)
    /// Only the highest-priority cache (the first).
    public static let highestOnly = ImageCachesPolicy(value: .highestOnly)
    /// Only the lowest-priority cache (the last).
    public static let lowestOnly = ImageCachesPolicy(value: .lowestOnly)

    public var description: String { "\(value)" }

    var isConcurrent: Bool { value == .concurrent }

    /// The caches this policy touches, in priority order.
    func select<Element>(_ caches: [Element]) -> [Element] {
        switch value {
        case .serial, .concurrent: caches
        case .highestOnly: Array(caches.prefix(1))
        case .lowestOnly: Array(caches.suffix(1))
        }
    }
}
