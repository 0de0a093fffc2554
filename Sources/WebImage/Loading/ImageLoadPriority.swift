/// How urgently a download should start when it has to wait for a free slot.
///
/// A struct with static members rather than an enum, so that levels can be added later.
public struct ImageLoadPriority: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Higher starts first.
    let rank: Int

    private init(rank: Int) { self.rank = rank }

    /// Starts after every waiting normal and high download (prefetching).
    public static let low = ImageLoadPriority(rank: -1)
    /// The default.
    public static let normal = ImageLoadPriority(rank: 0)
    /// Starts before every waiting normal and low download (what is on screen now).
    public static let high = ImageLoadPriority(rank: 1)

    public static func < (lhs: ImageLoadPriority, rhs: ImageLoadPriority) -> Bool { lhs.rank < rhs.rank }

    public var description: String {
        switch rank {
        case ..<0: "low"
        case 0: "normal"
        default: "high"
        }
    }
}
