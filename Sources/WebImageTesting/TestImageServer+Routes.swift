import Foundation

extension TestImageServer {
    /// How to answer one request: status, headers, body and the fault modifiers of its query.
    struct Reply: Sendable {
        enum Body: Sendable {
            case bytes(Data)
            /// `count` bytes generated on the fly: a PNG signature, then a pattern from `seed`.
            case generated(count: Int, seed: UInt64)
        }

        var status: Int
        var headers: [(String, String)] = []
        var body: Body = .bytes(Data())
        var delay: Duration?
        var gate: String?
        var chunked = false
        var chunkSize = 16 * 1024
        var drip: Duration?
        var lie = 0
        var truncateAfter: Int?

        var bodyCount: Int {
            switch body {
            case .bytes(let data): data.count
            case .generated(let count, _): count
            }
        }

        static func text(_ status: Int, _ text: String, type: String = "text/plain") -> Reply {
            Reply(status: status, headers: [("Content-Type", type)], body: .bytes(Data(text.utf8)))
        }
    }

    /// The reply for `uri` (path and query) with request `headers`.
    func reply(uri: String, headers: [(name: String, value: String)]) -> Reply {
        let components = URLComponents(string: "http://host\(uri)")
        let path = components?.path ?? uri
        var query: [String: String] = [:]
        for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
        var reply = route(path: path, query: query, headers: headers)
        if let ms = query["delay"].flatMap(Int.init) { reply.delay = .milliseconds(ms) }
        if let gate = query["gate"] { reply.gate = gate }
        if query["chunked"] != nil { reply.chunked = true }
        if let size = query["chunk"].flatMap(Int.init), size > 0 { reply.chunkSize = size }
        if let ms = query["drip"].flatMap(Int.init) { reply.drip = .milliseconds(ms) }
        if let lie = query["lie"].flatMap(Int.init) { reply.lie = lie }
        if let count = query["truncate"].flatMap(Int.init) {
            reply.truncateAfter = count
            reply.chunked = true
        }
        if let encoding = query["encoding"] { reply.headers.append(("Content-Encoding", encoding)) }
        if let type = query["type"] {
            reply.headers.removeAll { $0.0.lowercased() == "content-type" }
            reply.headers.append(("Content-Type", type))
        }
        return reply
    }

    private func route(path: String, query: [String: String], headers: [(name: String, value: String)]) -> Reply {
        let parts = path.split(separator: "/").map(String.init)
        if let resource = state.withLock({ $0.resources[path] }) {
            return serve(resource, headers: headers)
        }
        switch parts.first {
        case "status":
            let code = parts.count > 1 ? Int(parts[1]) ?? 500 : 500
            var reply = Reply.text(code, "status \(code)\n")
            if code == 429 || code == 503 { reply.headers.append(("Retry-After", "1")) }
            return reply
        case "html":
            return .text(
                200, "<!DOCTYPE html><html><body><h1>Oops</h1><p>Not found.</p></body></html>\n", type: "text/html")
        case "huge":
            let count = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            return Reply(status: 200, headers: [("Content-Type", "image/png")], body: .generated(count: count, seed: 1))
        case "generated":
            let name = parts.count > 1 ? parts[1] : "image"
            let size = query["size"].flatMap(Int.init) ?? 100_000
            return serve(Self.generatedResource(name: name, size: size), headers: headers)
        case "redirect":
            let hops = parts.count > 1 ? Int(parts[1]) ?? 1 : 1
            let target = query["to"] ?? "/html"
            let escaped = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
            let location = hops > 1 ? "/redirect/\(hops - 1)?to=\(escaped)" : target
            return Reply(status: 302, headers: [("Location", location)], body: .bytes(Data()))
        case "loop":
            let next = parts.count > 1 && parts[1] == "a" ? "/loop/b" : "/loop/a"
            return Reply(status: 302, headers: [("Location", next)], body: .bytes(Data()))
        case "fixtures":
            let relative = parts.dropFirst().joined(separator: "/")
            let file = Fixtures.directory.appendingPathComponent(relative)
            guard !relative.contains(".."), let data = try? Data(contentsOf: file) else {
                return .text(404, "no such fixture\n")
            }
            let type = Self.contentType(forExtension: file.pathExtension)
            return serve(Resource(data: data, contentType: type, etag: "\"fixture-\(data.count)\""), headers: headers)
        default:
            return .text(404, "not found\n")
        }
    }

    private func serve(_ resource: Resource, headers: [(name: String, value: String)]) -> Reply {
        func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name }?.value }
        var common: [(String, String)] = []
        if let etag = resource.etag { common.append(("ETag", etag)) }
        if let lastModified = resource.lastModified { common.append(("Last-Modified", lastModified)) }
        common += resource.extraHeaders
        let etagMatches = resource.etag != nil && header("if-none-match")?.contains(resource.etag!) == true
        let dateMatches =
            header("if-none-match") == nil && resource.lastModified != nil
            && header("if-modified-since") == resource.lastModified
        if etagMatches || dateMatches {
            return Reply(status: 304, headers: common, body: .bytes(Data()))
        }
        let typed = [("Content-Type", resource.contentType), ("Accept-Ranges", "bytes")] + common
        if let range = header("range") {
            let count = resource.data.count
            guard let bounds = Self.byteRange(range, count: count) else {
                return Reply(status: 416, headers: [("Content-Range", "bytes */\(count)")], body: .bytes(Data()))
            }
            let start = resource.data.startIndex
            let part = resource.data[(start + bounds.lowerBound)...(start + bounds.upperBound)]
            let contentRange = ("Content-Range", "bytes \(bounds.lowerBound)-\(bounds.upperBound)/\(count)")
            return Reply(status: 206, headers: typed + [contentRange], body: .bytes(Data(part)))
        }
        return Reply(status: 200, headers: typed, body: .bytes(resource.data))
    }

    /// The first and last byte of a single `bytes=first-last`, `bytes=first-` or `bytes=-suffix` range of a body of
    /// `count` bytes; `nil` when it is another form or unsatisfiable.
    static func byteRange(_ header: String, count: Int) -> ClosedRange<Int>? {
        guard header.hasPrefix("bytes="), count > 0 else { return nil }
        let spec = header.dropFirst(6)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let (first, last) = (spec[..<dash], spec[spec.index(after: dash)...])
        if first.isEmpty {
            guard let suffix = Int(last), suffix > 0 else { return nil }
            return max(0, count - suffix)...(count - 1)
        }
        guard let start = Int(first), start < count else { return nil }
        guard !last.isEmpty else { return start...(count - 1) }
        guard let end = Int(last), end >= start else { return nil }
        return start...min(end, count - 1)
    }

    /// `size` bytes that sniff as JPEG, distinct per `name`.
    static func generatedResource(name: String, size: Int) -> Resource {
        var seed: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { seed = (seed ^ UInt64(byte)) &* 0x100_0000_01b3 }
        var data = Data([0xFF, 0xD8, 0xFF, 0xE0])
        data.append(contentsOf: generate(count: max(0, size - 4), seed: seed, offset: 4))
        return Resource(data: data.prefix(size), contentType: "image/jpeg", etag: "\"gen-\(name)-\(size)\"")
    }

    /// `count` pseudo-random bytes of stream `seed` starting at `offset`; a PNG signature at offset 0.
    static func generate(count: Int, seed: UInt64, offset: Int) -> [UInt8] {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var bytes = [UInt8](repeating: 0, count: count)
        for index in 0..<count {
            let position = offset + index
            if position < signature.count {
                bytes[index] = signature[position]
            } else {
                var x = seed &+ UInt64(position / 8) &* 0x9E37_79B9_7F4A_7C15
                x = (x ^ (x >> 31)) &* 0xBF58_476D_1CE4_E5B9
                bytes[index] = UInt8(truncatingIfNeeded: x >> UInt64((position % 8) * 8))
            }
        }
        return bytes
    }

    static func contentType(forExtension ext: String) -> String {
        switch ext.lowercased() {
        case "jpg", "jpeg": "image/jpeg"
        case "png", "apng": "image/png"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "json": "application/json"
        default: "application/octet-stream"
        }
    }
}
