import Foundation

/// A typed key of ``ImageContext``: an open-ended extra setting of one request.
///
/// Declare a key as a type and add a static accessor on ``ImageContext`` for it:
/// ```swift
/// enum WatermarkKey: ImageContextKey { typealias Value = String }
/// ```
public protocol ImageContextKey {
    /// The type of the value stored under this key.
    associatedtype Value: Sendable
}

/// Open-ended extras of one request, SDWebImage's context dictionary without `Any`: each key has its value type.
///
/// What shapes the result (transformer, thumbnail size, loader options, limits, cache policy) is a typed field of
/// ``ImageRequest``; the context holds replacement parts and keys of your own.
public struct ImageContext: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// An empty context.
    public init() {}

    /// The value stored under `key`.
    public subscript<Key: ImageContextKey>(_ key: Key.Type) -> Key.Value? {
        get { values[ObjectIdentifier(key)] as? Key.Value }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    /// A copy with `value` stored under `key`.
    public func with<Key: ImageContextKey>(_ key: Key.Type, _ value: Key.Value) -> ImageContext {
        var copy = self
        copy[key] = value
        return copy
    }
}

/// The built-in context keys: parts that replace the manager's for one request.
public enum ImageContextKeys {
    /// A loader to use instead of the manager's.
    public enum Loader: ImageContextKey { public typealias Value = any ImageLoading }
    /// A cache to use instead of the manager's.
    public enum Cache: ImageContextKey { public typealias Value = any ImageCaching }
    /// Coders to use instead of the manager's.
    public enum Coders: ImageContextKey { public typealias Value = any ImageCoding }
}
