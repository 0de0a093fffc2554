/// The order in which waiting downloads of equal priority start.
public struct ImageDownloadOrder: Hashable, Sendable, CustomStringConvertible {
    let isLIFO: Bool

    /// First in, first out: the oldest waiting download starts first. The default.
    public static let fifo = ImageDownloadOrder(isLIFO: false)
    /// Last in, first out: the newest waiting download starts first (what the user scrolled to last).
    public static let lifo = ImageDownloadOrder(isLIFO: true)

    public var description: String { isLIFO ? "lifo" : "fifo" }
}
