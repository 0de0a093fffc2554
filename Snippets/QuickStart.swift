// Load an image through the shared manager, make a thumbnail, encode it, and plug in a loader of your own.
import Foundation
import WebImage

// snippet.hide
/// Stands in for the app's own storage, which the example leaves to the reader.
enum Database {
    static func blob(named name: String) async -> Data? { nil }
}
// snippet.show

// HTTP(S), file and data: loaders; memory + disk cache (~/.cache/swift-web-image/default).
let manager = ImageManager.shared

// Load: memory, then disk, then the network; identical requests in flight share one download and one decode.
let url = URL(string: "https://example.com/photo.jpg")!
let result = try await manager.image(for: url)
print(result.image!.size, result.cacheType, result.metrics.total)  // size, none/memory/disk, seconds

// What shapes the result is a field of the request. The transformer is part of the cache key; a leading
// resize also shrinks on load (the JPEG is decoded at 1/2, 1/4 or 1/8 scale before resampling).
var request = ImageRequest(
    url: url, options: [.retryFailed],
    transformer: TransformerPipeline([
        Resize(to: PixelSize(width: 256, height: 256), mode: .cover), RoundCorners(radius: 16),
    ]))
request.priority = .low
request.loaderOptions.requestModifier = .bearer("token")
let thumbnail = try await manager.image(for: request)

// Encode it.
let webp = try ImageCoders.default.encode(thumbnail.image!, as: .webp, options: EncodingOptions(quality: 80))

// A custom loader: anything conforming to ImageLoading, e.g. images kept in a database (`Database` is yours).
struct DatabaseLoader: ImageLoading {
    func canLoad(_ url: URL) -> Bool { url.scheme == "db" }
    func load(
        _ request: ImageLoadRequest, progress: ImageLoadProgressHandler?,
        partialData: ImagePartialDataHandler?
    ) async throws(WebImageError) -> ImageResponse {
        guard let bytes = await Database.blob(named: request.url.host() ?? "") else {
            throw WebImageError(.fileNotFound, "no such image", url: request.url)
        }
        return ImageResponse(data: bytes, url: request.url)
    }
}
let custom = ImageManager(
    configuration: .init(
        loader: ImageLoaders([DatabaseLoader(), HTTPImageLoader()]),
        cache: ImageCache(namespace: "thumbnails")))
// ...
await custom.shutdown()  // shuts every loader down (closes HTTP clients) before the process exits
// snippet.hide
_ = webp
