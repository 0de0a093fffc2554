// A helper for the disk cache tests, run as a child process:
//   webimage-cache-writer write <directory> <key> <bytes>     rewrite one large entry forever (to be SIGKILLed)
//   webimage-cache-writer hammer <directory> <seed> <rounds>  write, read and remove 16 shared keys, verifying reads
// Exits 1 if it ever reads a damaged entry, 2 on bad arguments.
import Foundation
import WebImage
import WebImageTesting

let arguments = CommandLine.arguments
guard arguments.count == 5, let number = Int(arguments[4]) else {
    FileHandle.standardError.write(Data("usage: webimage-cache-writer write|hammer <dir> <key|seed> <n>\n".utf8))
    exit(2)
}
let cache = DiskCache(
    directory: URL(fileURLWithPath: arguments[2]), configuration: DiskCache.Configuration(sweepInterval: nil))

switch arguments[1] {
case "write":
    // Payloads are made up front, so that the loop spends its time writing.
    let payloads = [CacheTestPayload.make(size: number, seed: 1), CacheTestPayload.make(size: number, seed: 2)]
    FileHandle.standardOutput.write(Data("ready\n".utf8))
    for round in 0... {
        try await cache.store(payloads[round % 2], forKey: arguments[3])
    }
case "hammer":
    guard let base = UInt8(arguments[3]) else { exit(2) }
    var generator = SystemRandomNumberGenerator()
    for round in 0..<number {
        let key = "shared-\(Int.random(in: 0..<16, using: &generator))"
        switch Int.random(in: 0..<10, using: &generator) {
        case 0:
            await cache.remove(forKey: key)
        case 1...4:
            let size = Int.random(in: 9...65_536, using: &generator)
            do {
                try await cache.store(
                    CacheTestPayload.make(size: size, seed: base &+ UInt8(truncatingIfNeeded: round)), forKey: key)
            } catch {
                FileHandle.standardError.write(Data("store failed: \(error)\n".utf8))
                exit(1)
            }
        default:
            if let data = await cache.data(forKey: key), !CacheTestPayload.isIntact(data) {
                FileHandle.standardError.write(Data("damaged entry for \(key): \(data.count) bytes\n".utf8))
                exit(1)
            }
        }
    }
    exit(0)
default:
    exit(2)
}
