import Foundation
import Tracing

extension ImagePipeline {
    /// Loads the image through the context's or the manager's loader in a `download` span; with `cached`, as a
    /// revalidation (its validators sent).
    func load(revalidating cached: ImageCacheResult?) async throws(WebImageError) -> ImageResponse {
        let loader = context[ImageContextKeys.Loader.self] ?? manager.configuration.loader
        var loaderOptions = request.loaderOptions
        if let metadata = cached?.metadata {
            loaderOptions.ifNoneMatch = metadata.etag
            loaderOptions.ifModifiedSince = metadata.lastModified
        }
        let handle = ImageLoadPriorityHandle(run?.priority ?? request.priority)
        run?.observePriority { handle.setPriority($0) }
        let loadRequest = ImageLoadRequest(
            url: request.url, options: loaderOptions, priority: handle.priority, priorityHandle: handle)
        let previews = options.contains(.progressiveLoad) ? ProgressivePreviews(pipeline: self) : nil
        let run = run
        let progress: ImageLoadProgressHandler = { received, expected in
            run?.send(.progress(received: received, expected: expected))
        }
        var partialData: ImagePartialDataHandler?
        if let previews { partialData = { data in previews.receive(data) } }
        defer { previews?.finish() }
        let url = request.url
        return try await StageSpan.run("download", kind: .client) { span throws(WebImageError) in
            span.attributes["url.scheme"] = url.scheme
            span.attributes["server.address"] = url.host
            do throws(WebImageError) {
                let response = try await loader.load(loadRequest, progress: progress, partialData: partialData)
                span.attributes["http.response.status_code"] = response.httpStatus
                span.attributes["http.response.body.size"] = response.data.count
                return response
            } catch {
                span.attributes["http.response.status_code"] = error.httpStatus
                throw error
            }
        }
    }
}
