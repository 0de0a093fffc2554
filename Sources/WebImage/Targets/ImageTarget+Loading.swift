import Foundation

extension ImageTarget {
    /// Loads `url` through `manager` and shows it on this target, replacing whatever this target (for
    /// `operationKey`) was loading before: SDWebImage's `sd_setImage(with:placeholderImage:options:context:…)`.
    ///
    /// - The previous load for the same operation key is cancelled; its completion gets
    ///   ``WebImageError/Code/cancelled``, and its image is never shown, even if it arrives later.
    /// - The placeholder is shown at once (`nil` clears the target), or, with ``ImageOptions/delayPlaceholder``,
    ///   only if the load fails.
    /// - A memory hit is shown before this method returns; otherwise the image is shown on the main actor when it
    ///   arrives, if this target still wants this load. With ``ImageOptions/avoidAutoSetImage`` it only goes to
    ///   `completion`.
    /// - The target is held weakly: a released target is never called, and its load is cancelled at its next
    ///   progress event or when any target starts a load.
    ///
    /// - Parameters:
    ///   - url: the source; `nil` fails with ``WebImageError/Code/invalidSource`` (after showing the placeholder).
    ///   - placeholder: shown at once, or only on failure with ``ImageOptions/delayPlaceholder``.
    ///   - options: the request's switches.
    ///   - context: the request's extras (a loader, cache or coders of its own).
    ///   - operationKey: loads with different keys on one target run side by side. Default: one key per target.
    ///   - manager: loads and caches the image. Default: ``ImageManager/shared``.
    ///   - progress: called on the main actor as bytes of this load arrive.
    ///   - completion: called exactly once per call, on the main actor (synchronously for a memory hit or a `nil`
    ///     URL), with the result, the error, or ``WebImageError/Code/cancelled`` if the load was replaced or
    ///     cancelled.
    public func setImage(
        with url: URL?, placeholder: Image? = nil, options: ImageOptions = [], context: ImageContext = ImageContext(),
        operationKey: String? = nil, manager: ImageManager = .shared,
        progress: (@MainActor @Sendable (ImageProgress) -> Void)? = nil,
        completion: (@MainActor @Sendable (Result<ImageResult, WebImageError>) -> Void)? = nil
    ) {
        startLoad(
            url.map { ImageRequest(url: $0, options: options, context: context) }, placeholder: placeholder,
            operationKey: operationKey, manager: manager, progress: progress, completion: completion)
    }

    /// Loads `request` through `manager` and shows the result on this target, as
    /// ``setImage(with:placeholder:options:context:operationKey:manager:progress:completion:)`` does for a URL; the
    /// request carries the transformer, thumbnail size, loader options (such as an `Authorization` header), limits and
    /// cache policy, and its ``ImageRequest/options`` decide the placeholder and whether the image is set.
    ///
    /// ```swift
    /// target.setImage(with: ImageRequest(url: url, transformer: Resize(to: PixelSize(width: 64, height: 64))))
    /// ```
    public func setImage(
        with request: ImageRequest, placeholder: Image? = nil, operationKey: String? = nil,
        manager: ImageManager = .shared, progress: (@MainActor @Sendable (ImageProgress) -> Void)? = nil,
        completion: (@MainActor @Sendable (Result<ImageResult, WebImageError>) -> Void)? = nil
    ) {
        startLoad(
            request, placeholder: placeholder, operationKey: operationKey, manager: manager, progress: progress,
            completion: completion)
    }

    /// Both `setImage(with:)`s: `nil` fails with ``WebImageError/Code/invalidSource`` after the placeholder.
    private func startLoad(
        _ request: ImageRequest?, placeholder: Image?, operationKey: String?, manager: ImageManager,
        progress: (@MainActor @Sendable (ImageProgress) -> Void)?,
        completion: (@MainActor @Sendable (Result<ImageResult, WebImageError>) -> Void)?
    ) {
        let url = request?.url
        let options = request?.options ?? []
        let registry = ImageTargetRegistry.shared
        let key = ImageTargetRegistry.Key(self, operation: operationKey)
        let (generation, replaced) = registry.begin(self, key: key, url: url)
        if replaced { imageLoadDidFinish() }
        let delayed = options.contains(.delayPlaceholder)
        if !delayed { setImage(placeholder) }
        guard let request, let url else {
            registry.end(key, generation: generation)
            if delayed { setImage(placeholder) }
            completion?(.failure(WebImageError(.invalidSource, "the image URL is nil")))
            return
        }
        imageLoadDidStart()
        if let hit = manager.memoryHit(for: request) {
            registry.end(key, generation: generation)
            if !options.contains(.avoidAutoSetImage), let image = hit.image { setImage(image) }
            imageLoadDidFinish()
            completion?(.success(hit))
            return
        }
        let task = ImageTask(manager: manager, request: request, afterMemoryMiss: true)
        registry.attach(task, key: key, generation: generation)
        Task { @MainActor [weak self] in
            for await event in task.progress where registry.isCurrent(key, generation: generation) {
                guard let self else {
                    task.cancel()
                    continue
                }
                self.imageLoadProgress(event)
                progress?(event)
            }
            let outcome: Result<ImageResult, WebImageError>
            do throws(WebImageError) {
                outcome = .success(try await task.result)
            } catch {
                outcome = .failure(error)
            }
            guard registry.end(key, generation: generation) else {
                // Replaced or cancelled: its imageLoadDidFinish() was called then; never show what it got.
                completion?(.failure(WebImageError(.cancelled, "the load was replaced or cancelled", url: url)))
                return
            }
            if let self {
                switch outcome {
                case .success(let result):
                    if !options.contains(.avoidAutoSetImage), let image = result.image { self.setImage(image) }
                case .failure:
                    if delayed { self.setImage(placeholder) }
                }
                self.imageLoadDidFinish()
            }
            completion?(outcome)
        }
    }

    /// Cancels this target's load for `operationKey`; its completion gets ``WebImageError/Code/cancelled`` and
    /// ``imageLoadDidFinish()`` is called now. Does nothing when no load is running.
    public func cancelImageLoad(operationKey: String? = nil) {
        if ImageTargetRegistry.shared.cancel(ImageTargetRegistry.Key(self, operation: operationKey)) {
            imageLoadDidFinish()
        }
    }

    /// The URL this target is loading for `operationKey`, or `nil` when no load is running.
    public func loadingImageURL(operationKey: String? = nil) -> URL? {
        ImageTargetRegistry.shared.url(for: ImageTargetRegistry.Key(self, operation: operationKey))
    }
}
