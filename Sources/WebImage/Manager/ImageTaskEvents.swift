/// Where one caller wants progress and previews delivered.
struct ImageTaskEvents: Sendable {
    var onProgress: (@Sendable (Int, Int?) -> Void)?
    var onPreview: (@Sendable (Image) -> Void)?
    var onFinish: (@Sendable () -> Void)?

    static let none = ImageTaskEvents()

    func progress(_ received: Int, _ expected: Int?) { onProgress?(received, expected) }
    func preview(_ image: Image) { onPreview?(image) }
    func finish() { onFinish?() }
}
