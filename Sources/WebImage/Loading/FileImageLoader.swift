import Foundation

/// Loads local files: `file://` URLs and scheme-less URLs holding a path.
///
/// A missing file fails with ``WebImageError/Code/fileNotFound``; a directory or a file that cannot be read with
/// ``WebImageError/Code/fileUnreadable``; a file larger than ``ImageLoaderOptions/maxBodySize`` with
/// ``WebImageError/Code/bodyTooLarge``. The validator and decryptor of the options apply. The response carries the
/// file's validators, as imgproxy's file storage makes them: `Last-Modified` (the modification time) and an `ETag`
/// (a digest of the path, the size and the modification time to the nanosecond).
public struct FileImageLoader: ImageLoading {
    /// Creates a file loader.
    public init() {}

    /// A URL for `source`, a path or a `file://` URL; `nil` if it is a URL of another scheme.
    public static func url(for source: String) -> URL? {
        if source.hasPrefix("file:") { return URL(string: source).flatMap { $0.isFileURL ? $0 : nil } }
        if source.contains("://") || source.hasPrefix("data:") { return nil }
        return URL(fileURLWithPath: source)
    }

    public func canLoad(_ url: URL) -> Bool {
        url.isFileURL || (url.scheme == nil && !url.path.isEmpty)
    }

    public func load(
        _ request: ImageLoadRequest, progress: ImageLoadProgressHandler?, partialData: ImagePartialDataHandler?
    ) async throws(WebImageError) -> ImageResponse {
        let url = request.url.isFileURL ? request.url : URL(fileURLWithPath: request.url.path)
        guard canLoad(request.url) else {
            throw WebImageError(.invalidSource, "not a file URL", url: request.url)
        }
        if Task.isCancelled { throw WebImageError(.cancelled, "the load was cancelled", url: url) }
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw WebImageError(.fileNotFound, "no such file", url: url)
        }
        guard !isDirectory.boolValue else { throw WebImageError(.fileUnreadable, "is a directory", url: url) }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw WebImageError(.fileUnreadable, "permission denied", url: url)
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let size = attributes?[.size] as? Int
        if let size, size > request.options.maxBodySize {
            throw WebImageError(
                .bodyTooLarge, "the file has \(size) bytes, more than the limit of \(request.options.maxBodySize)",
                url: url)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw WebImageError(
                .fileUnreadable, "cannot read: \(error.localizedDescription)", url: url, underlying: error)
        }
        if Task.isCancelled { throw WebImageError(.cancelled, "the load was cancelled", url: url) }
        progress?(data.count, size ?? data.count)
        partialData?(data)
        let type = ImageFormat.sniff(data)
        var response = ImageResponse(
            data: data, url: url, contentType: type == .unknown ? nil : type.mimeType, expectedLength: size)
        if let modified = attributes?[.modificationDate] as? Date {
            let time = (modified.timeIntervalSince1970 * 1e9).rounded()
            let nanoseconds = time.isFinite && abs(time) < 9e18 ? Int64(time) : 0
            response.etag = "\"" + Hex.sha256("\(path)__\(data.count)__\(nanoseconds)") + "\""
            response.lastModified = Self.httpDate(modified)
        }
        return try request.options.finish(response)
    }

    /// `date` as an HTTP date (IMF-fixdate, `Wed, 21 Oct 2015 07:28:00 GMT`).
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
