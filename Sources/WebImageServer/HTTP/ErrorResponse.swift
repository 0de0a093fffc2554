import Foundation
import Hummingbird

/// Error responses: a short `text/plain` line (JSON when asked), no `Cache-Control`, nothing from the origin.
enum ErrorResponse {
    static func make(_ error: ImageServerError, json: Bool, vary: Bool) -> Response {
        var headers = HTTPFields()
        let body: String
        if json {
            headers[.contentType] = "application/json"
            let encoded = (try? JSONEncoder().encode(["error": error.message])).map {
                String(decoding: $0, as: UTF8.self)
            }
            body = (encoded ?? "{}") + "\n"
        } else {
            headers[.contentType] = "text/plain; charset=utf-8"
            body = error.message + "\n"
        }
        if vary { headers[.vary] = "Accept" }
        if let retryAfter = error.retryAfter { headers[.retryAfter] = String(retryAfter) }
        return Response(
            status: HTTPResponse.Status(code: error.status), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
