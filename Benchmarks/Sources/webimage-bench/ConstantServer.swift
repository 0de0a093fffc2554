import Foundation
import Hummingbird
import NIOCore

/// `webimage-bench constant-server FILE PORT`: the framework's ceiling for a cache hit (issue 29). A bare Hummingbird
/// application whose one route answers every `GET` with FILE's bytes, read once at start, and the headers a hit
/// carries (type, length, ETag, Cache-Control). Nothing else: no parsing, no signature, no cache, no log, no metrics.
enum ConstantServer {
    static func run(_ arguments: [String]) async throws {
        guard arguments.count == 2, let port = Int(arguments[1]) else {
            print("usage: webimage-bench constant-server FILE PORT")
            exit(64)
        }
        let body = ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: arguments[0])))
        var headers = HTTPFields()
        headers[.contentType] = "image/jpeg"
        headers[.cacheControl] = "max-age=31536000, public"
        headers[.eTag] = "\"0123456789abcdef0123456789abcdef\""
        let router = Router()
        router.get("**") { [headers] _, _ in
            Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
        }
        router.get("health") { _, _ in "OK" }
        let application = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await application.runService()
    }
}
