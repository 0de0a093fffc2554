/// A setting of an ``ImageServerConfiguration`` outside its range: which setting, and what it must be.
///
/// ``ImageServer/init(configuration:)`` checks every setting before it builds anything, so an app that mounts the
/// server gets the same checks as `webimage serve`, which reports this error as its own usage error (exit 64).
public struct ImageServerConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The setting, named as its `webimage serve` flag without the dashes (`max-src-resolution`).
    public let setting: String
    /// What the value must be (`must be between 1 and 1024`).
    public let requirement: String

    /// An error for `setting`, which must meet `requirement`.
    public init(_ setting: String, _ requirement: String) {
        self.setting = setting
        self.requirement = requirement
    }

    public var description: String { "--\(setting) \(requirement)" }

    /// Throws unless `value` lies in `range`.
    static func check<Value: Comparable>(
        _ value: Value, in range: ClosedRange<Value>, _ setting: String, _ requirement: String
    ) throws(ImageServerConfigurationError) {
        guard range.contains(value) else { throw ImageServerConfigurationError(setting, requirement) }
    }
}
