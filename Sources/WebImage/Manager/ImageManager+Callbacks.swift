import Foundation

extension ImageManager {
    /// Loads an image in SDWebImage's callback style.
    ///
    /// `completion` is called exactly once: synchronously, before this method returns, on a memory hit; otherwise
    /// from a background thread, with the result or the error (``WebImageError/Code/cancelled`` after
    /// ``ImageTask/cancel()``, never an image for a cancelled task). `progress` is called from the network threads,
    /// between reads: keep it short.
    @discardableResult
    public func loadImage(
        with url: URL, options: ImageOptions = [], context: ImageContext = ImageContext(),
        progress: (@Sendable (ImageProgress) -> Void)? = nil,
        completion: @escaping @Sendable (Result<ImageResult, WebImageError>) -> Void
    ) -> ImageTask {
        let request = ImageRequest(url: url, options: options, context: context)
        if !options.contains(.avoidDecode), let image = cachedImage(for: request) {
            let result = ImageResult(image: image, data: nil, cacheType: .memory, url: url, metrics: ImageMetrics())
            completion(.success(result))
            return ImageTask(manager: self, request: request, id: makeID(), finished: result)
        }
        let task = ImageTask(manager: self, request: request, id: makeID(), onProgress: progress)
        Task {
            do throws(WebImageError) {
                let result = try await task.result
                if task.isCancelled {
                    completion(.failure(WebImageError(.cancelled, "the request was cancelled", url: url)))
                } else {
                    completion(.success(result))
                }
            } catch {
                completion(.failure(error))
            }
        }
        return task
    }
}
