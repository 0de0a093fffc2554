import Foundation
import Hummingbird

/// Error responses: a short `text/plain` line (JSON when asked), no `Cache-Control`, no `Vary` (imgproxy sends it
/// only with images and 304s), nothing from the origin.
enum ErrorResponse {
    static func make(_ error: ImageServerError, json: Bool) -> Response {
        let status = HTTPResponse.Status(code: error.status)
        var response: Response
        if json {
            let encoded = (try? JSONEncoder().encode(["error": error.message])).map {
                String(decoding: $0, as: UTF8.self)
            }
            response = Response.text(status, (encoded ?? "{}") + "\n", type: "application/json")
        } else {
            response = Response.text(status, error.message + "\n")
        }
        if let retryAfter = error.retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        return response
    }
}
