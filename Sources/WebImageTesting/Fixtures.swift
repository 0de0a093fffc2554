import Foundation

/// Locates the test fixtures of this package: the vendored conformance corpus and sample images.
public enum Fixtures {
    /// `Tests/Fixtures` of this package's checkout.
    public static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Fixtures", isDirectory: true)

    /// The vendored conformance corpus (`Tests/Fixtures/corpus`), laid out as `../shared/corpus`.
    public static let corpus: URL = directory.appendingPathComponent("corpus", isDirectory: true)

    /// The bytes of `name` under `Tests/Fixtures`.
    public static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }
}
