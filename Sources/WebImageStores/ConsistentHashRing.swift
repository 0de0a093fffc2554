import CZlib

/// The consistent-hash ring of nginx's `upstream { hash KEY consistent; }` (ketama, as Cache::Memcached::Fast):
/// given the same server names (`host:port`, as written in the `upstream` block) and weights, it picks the same server
/// for every key as nginx does, so a node can tell which node owns a result.
///
/// Each server gets 160 points per unit of weight: point `i` is CRC-32 of `host`, a zero byte, `port` and the previous
/// point's hash in little-endian (0 for the first). A key's hash is the CRC-32 of its bytes; its server is the one of
/// the first point at or after that hash, wrapping around.
public struct ConsistentHashRing: Sendable {
    private struct Point: Sendable {
        let hash: UInt32
        let server: Int
    }

    /// The servers, in the order given.
    public let servers: [String]
    private let points: [Point]

    /// A ring over `servers` (`host:port` or `unix:/path`), each with weight 1 unless `weights` says otherwise.
    public init(servers: [String], weights: [Int]? = nil) {
        self.servers = servers
        var points: [Point] = []
        for (index, server) in servers.enumerated() {
            let (host, port) = Self.hostAndPort(Array(server.utf8))
            var base = Self.crc(0, host)
            base = Self.crc(base, [0])
            base = Self.crc(base, port)
            var previous: UInt32 = 0
            let weight = max(weights.map { index < $0.count ? $0[index] : 1 } ?? 1, 0)
            for _ in 0..<(weight * 160) {
                let hash = Self.crc(base, withUnsafeBytes(of: previous.littleEndian) { Array($0) })
                points.append(Point(hash: hash, server: index))
                previous = hash
            }
        }
        points.sort { $0.hash < $1.hash }
        var unique: [Point] = []
        for point in points where unique.last?.hash != point.hash { unique.append(point) }
        self.points = unique
    }

    /// The server that owns `key`, or `nil` for an empty ring.
    public func server(for key: String) -> String? {
        guard !points.isEmpty else { return nil }
        let hash = Self.crc(0, Array(key.utf8))
        var (low, high) = (0, points.count)
        while low < high {
            let middle = (low + high) / 2
            if points[middle].hash < hash { low = middle + 1 } else { high = middle }
        }
        return servers[points[low % points.count].server]
    }

    /// nginx's split of a server name: `unix:` paths have no port; otherwise the digits after the last colon.
    private static func hostAndPort(_ name: [UInt8]) -> (host: [UInt8], port: [UInt8]) {
        if name.count >= 5, String(decoding: name.prefix(5), as: UTF8.self).lowercased() == "unix:" {
            return (Array(name.dropFirst(5)), [])
        }
        for offset in 0..<name.count {
            let character = name[name.count - offset - 1]
            if character == UInt8(ascii: ":") {
                return (Array(name[..<(name.count - offset - 1)]), Array(name[(name.count - offset)...]))
            }
            if character < UInt8(ascii: "0") || character > UInt8(ascii: "9") { break }
        }
        return (name, [])
    }

    /// zlib's CRC-32 (the same as nginx's `ngx_crc32`), continued from `crc`.
    private static func crc(_ crc: UInt32, _ bytes: [UInt8]) -> UInt32 {
        // zlib returns its initial value, not `crc`, for a null buffer.
        guard !bytes.isEmpty else { return crc }
        return bytes.withUnsafeBufferPointer { buffer in
            UInt32(CZlib.crc32(uLong(crc), buffer.baseAddress, uInt(buffer.count)))
        }
    }
}
