import Hummingbird

extension Response {
    /// A response whose body is `body`, of `type` (a short `text/plain` line by default): the server's own answers
    /// (health, landing page, purge results, errors).
    static func text(
        _ status: HTTPResponse.Status, _ body: String, type: String = "text/plain; charset=utf-8"
    ) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
