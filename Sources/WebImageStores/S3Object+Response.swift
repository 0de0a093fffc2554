import Foundation
import WebImage

extension S3Object {
    /// The object as a loader's 200 answer to `url`: its `Content-Type`, `Last-Modified`, `ETag`, `Cache-Control` and
    /// `Expires` as an HTTP origin's headers (imgproxy's storage readers set the last two from the object's); `.bodyTooLarge` when it is larger than `maxSize` bytes.
    func response(to url: URL, maxSize: Int) throws(WebImageError) -> ImageResponse {
        guard data.count <= maxSize else {
            throw WebImageError(.bodyTooLarge, "the object is larger than \(maxSize) bytes", url: url)
        }
        var headers: [(name: String, value: String)] = []
        if let contentType { headers.append(("Content-Type", contentType)) }
        if let lastModified { headers.append(("Last-Modified", lastModified)) }
        if let etag { headers.append(("ETag", etag)) }
        if let cacheControl, !cacheControl.isEmpty { headers.append(("Cache-Control", cacheControl)) }
        if let expires, !expires.isEmpty { headers.append(("Expires", expires)) }
        return ImageResponse(
            data: data, url: url, httpStatus: 200, headers: ImageHTTPHeaders(headers), expectedLength: data.count)
    }
}
