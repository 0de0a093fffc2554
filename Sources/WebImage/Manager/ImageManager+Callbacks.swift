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
        with request: ImageRequest, progress: (@Sendable (ImageProgress) -> Void)? = nil,
        completion: @escaping @Sendable (Result<ImageResult, WebImageError>) -> Void
    ) -> ImageTask {
        if let hit = memoryHit(for: request) {
            completion(.success(hit))
            return ImageTask(request: request, finished: hit)
        }
        let task = ImageTask(manager: self, request: request, afterMemoryMiss: true, onProgress: progress)
        Task {
            do throws(WebImageError) {
                let result = try await task.result
                if task.isCancelled {
                    completion(.failure(WebImageError(.cancelled, "the request was cancelled", url: request.url)))
                } else {
                    completion(.success(result))
                }
            } catch {
                completion(.failure(error))
            }
        }
        return task
    }

    /// Loads the image at `url` in SDWebImage's callback style; see ``loadImage(with:progress:completion:)-(ImageRequest,_,_)``.
    @discardableResult
    public func loadImage(
        with url: URL, options: ImageOptions = [], context: ImageContext = ImageContext(),
        progress: (@Sendable (ImageProgress) -> Void)? = nil,
        completion: @escaping @Sendable (Result<ImageResult, WebImageError>) -> Void
    ) -> ImageTask {
        loadImage(
            with: ImageRequest(url: url, options: options, context: context), progress: progress,
            completion: completion)
    }
}
