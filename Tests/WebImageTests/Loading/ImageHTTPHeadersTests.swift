import Testing

@testable import WebImage

@Suite("Loading: header fields")
struct ImageHTTPHeadersTests {
    @Test func namesCompareAndHashIgnoringASCIICase() {
        let a: ImageHTTPHeaders = ["Content-Type": "image/png", "ETag": "\"x\""]
        let b: ImageHTTPHeaders = ["content-type": "image/png", "etag": "\"x\""]
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a["CONTENT-TYPE"] == "image/png")
        #expect(a != ["Content-Type": "image/PNG", "ETag": "\"x\""], "values keep their case")
        #expect(a != ["Content-Typ": "image/png", "ETag": "\"x\""])
        #expect(!"Straße".caseInsensitiveEquals("STRASSE"))
    }

    @Test(arguments: [
        ("image/png", "image/png"), ("Image/JPEG; charset=binary", "image/jpeg"), ("  image/webp ;q=1", "image/webp"),
        ("\timage/gif\t", "image/gif"), ("", ""), (";", ""),
    ])
    func mimeTypeDropsParametersAndBlanksAndLowercases(header: String, expected: String) {
        #expect(ImageResponse.mimeType(header) == expected)
    }
}
