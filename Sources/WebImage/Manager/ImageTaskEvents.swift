/// Where one caller wants progress and previews delivered.
struct ImageTaskEvents: Sendable {
    var onProgress: (@Sendable (Int, Int?) -> Void)?
    var onPreview: (@Sendable (Image) -> Void)?
    var onFinish: (@Sendable () -> Void)?

    static let none = ImageTaskEvents()

    func progress(_ received: Int, _ expected: Int?) { onProgress?(received, expected) }
    func preview(_ image: Image) { onPreview?(image) }
    func finish() { onFinish?() }

    /// A run subscriber at `priority` that passes the run's events on to these handlers.
    func subscriber(priority: ImageLoadPriority) -> WorkSubscriber<RunEvent> {
        WorkSubscriber(priority: priority) { event in
            switch event {
            case .progress(let received, let expected): progress(received, expected)
            case .preview(let image): preview(image)
            }
        }
    }
}
