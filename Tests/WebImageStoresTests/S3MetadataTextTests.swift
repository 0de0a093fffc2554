import Foundation
import Testing
import WebImage

@testable import WebImageStores

/// The S3 server's "double encoding" of non-ASCII metadata, undone as the S3 Encryption Client undoes it.
@Suite struct S3MetadataTextTests {
    /// `text` as S3 answers it: each UTF-8 byte taken as a Latin-1 character, encoded again in UTF-8, in a base64
    /// encoded word. Written here from that description.
    static func doubleEncoded(_ text: String) -> String {
        var latin1 = ""
        for byte in text.utf8 { latin1.unicodeScalars.append(Unicode.Scalar(byte)) }
        return "=?UTF-8?B?\(Data(latin1.utf8).base64EncodedString())?="
    }

    @Test func doubleEncodedValuesAreRestored() throws {
        let context = "{\"aws:x-amz-cek-alg\":\"115\",\"photographer\":\"Zoë Łukasz 北京\"}"
        #expect(try S3MetadataText.decoded(Self.doubleEncoded(context)) == context)
        // Q encoding, and two words with only a space between them, which is dropped.
        #expect(
            try S3MetadataText.decoded("=?utf-8?q?{\"a\":\"caf=C3=83=C2=A9?= =?UTF-8?Q?_x\"}?=") == "{\"a\":\"café x\"}"
        )
        // An ISO-8859-1 word: its bytes are the original UTF-8 bytes.
        #expect(try S3MetadataText.decoded("{\"a\":\"=?iso-8859-1?q?caf=C3=A9?=\"}") == "{\"a\":\"café\"}")
    }

    @Test func asciiAndBrokenWordsAreKept() throws {
        for value in ["{}", "{\"kms_cmk_id\":\"alias/a=?b\"}", "=?UTF-8?B?***?=", "=?UTF-8?X?abc?=", "=??B?YQ==?="] {
            #expect(try S3MetadataText.decoded(value) == value)
        }
    }

    @Test func otherCharsetsAndTruncatedValuesAreErrors() {
        #expect(throws: WebImageError.self) { try S3MetadataText.decoded("=?koi8-r?B?YQ==?=") }
        #expect(throws: WebImageError.self) { try S3MetadataText.decoded("{\"a\":\"\u{20AC}") }
    }
}
