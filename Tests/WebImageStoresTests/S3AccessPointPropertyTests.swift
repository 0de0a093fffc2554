import Foundation
import Testing
import WebImage

@testable import WebImageStores

/// Whatever an operator writes in `IMGPROXY_S3_ACCESS_POINTS`, or a store puts in an object's metadata, the parsers
/// answer with a value or a typed error, never a trap: seeded random ARNs, encryption envelopes and metadata text.
@Suite struct S3AccessPointPropertyTests {
    /// A small seeded generator (SplitMix64), so that a failure can be replayed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
    }

    private static func text(_ alphabet: [String], count: Int, using generator: inout Generator) -> String {
        (0..<count).map { _ in alphabet.randomElement(using: &generator) ?? "" }.joined()
    }

    @Test(arguments: 0..<8)
    func randomARNsResolveOrFailWithATypedError(seed: UInt64) throws {
        var generator = Generator(state: seed)
        let prefixes = ["arn:aws:s3:", "arn:aws:s3::", "arn:aws-cn:s3::", "arn:aws:s3-outposts:", "arn:", ""]
        let pieces = [
            ":", "/", ".", "-", "_", "a", "Z", "0", "us-west-2", "123456789012", "accesspoint", "outpost", "op-1",
            "mrap", "é", "", "bucket",
        ]
        for _ in 0..<300 {
            let arn =
                (prefixes.randomElement(using: &generator) ?? "")
                + Self.text(pieces, count: Int.random(in: 0...12, using: &generator), using: &generator)
            let point: S3AccessPoint?
            do { point = try S3AccessPoint(arn: arn) } catch { continue }
            guard let point else {
                #expect(!arn.hasPrefix("arn:"))
                continue
            }
            for endpoint in ["https://s3.us-west-2.amazonaws.com", "http://127.0.0.1:9000", "http://store.internal"] {
                guard
                    let host = try? point.host(
                        endpoint: URL(string: endpoint)!, addressing: .virtual, region: "us-west-2")
                else { continue }
                #expect(
                    host.unicodeScalars.allSatisfy {
                        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == ".")
                    }, "\(arn) → \(host)")
            }
        }
    }

    @Test(arguments: 0..<8)
    func randomEnvelopesAreReadOrRefusedWithATypedError(seed: UInt64) throws {
        var generator = Generator(state: seed)
        let names = [
            "x-amz-key", "x-amz-key-v2", "x-amz-iv", "x-amz-cek-alg", "x-amz-wrap-alg", "x-amz-matdesc",
            "x-amz-tag-len",
            "x-amz-3", "x-amz-w", "x-amz-t", "x-amz-c", "x-amz-d", "x-amz-i", "x-amz-m",
        ]
        let values = ["", "115", "12", "02", "AES/GCM/NoPadding", "kms+context", "{}", "AAAA", "////", "=", "128", "%"]
        func dictionary() -> [String: String] {
            var result: [String: String] = [:]
            for name in names where Bool.random(using: &generator) {
                result[name] = values.randomElement(using: &generator)
            }
            return result
        }
        for _ in 0..<300 {
            let metadata = dictionary()
            let instruction = Bool.random(using: &generator) ? dictionary() : nil
            do {
                let envelope = try S3EncryptionEnvelope(metadata: metadata, instruction: instruction, key: "k")
                _ = (envelope.encryptedDataKey, envelope.ivOrMessageID, envelope.keyCommitment)
                _ = (envelope.encryptionContext, envelope.tagLength, envelope.contentAlgorithm)
                if let id = envelope.ivOrMessageID, let commitment = envelope.keyCommitment {
                    #expect(throws: WebImageError.self) {
                        try S3KeyCommitment.contentKey(
                            dataKey: Data(count: 32), messageID: id, commitment: commitment, objectKey: "k")
                    }
                }
            } catch {
                #expect(error.code == .corruptData)
            }
        }
    }

    @Test(arguments: 0..<8)
    func randomMetadataTextDecodesOrFailsWithATypedError(seed: UInt64) {
        var generator = Generator(state: seed)
        let pieces = [
            "=?", "?=", "?", "UTF-8", "utf-8", "iso-8859-1", "koi8-r", "?B?", "?Q?", "YQ==", "w6k=", "=C3", "=A9", "=",
            "_", " ", "é", "€", "{", "}", "\"", "a", "",
        ]
        for _ in 0..<500 {
            let value = Self.text(pieces, count: Int.random(in: 0...14, using: &generator), using: &generator)
            do { _ = try S3MetadataText.decoded(value) } catch { #expect(error.code == .corruptData) }
        }
    }
}
