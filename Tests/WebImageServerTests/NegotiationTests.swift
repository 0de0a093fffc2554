import Testing

@testable import WebImageServer

@Suite("Server: Accept and validators")
struct NegotiationTests {
    @Test(arguments: [
        ("image/webp,*/*", true), ("image/avif, image/webp;q=0.9", true), ("IMAGE/WEBP".lowercased(), true),
        ("image/webp;q=0", false), ("image/webp;q=0.0", false), ("*/*", false), ("image/webpx", false), ("", false),
    ])
    func webPIsAcceptedOnlyWhenListedWithAPositiveQuality(accept: String, expected: Bool) {
        #expect(Negotiation(accept: accept).acceptsWebP == expected)
    }

    @Test func jsonErrorsOnlyWhenAsked() {
        #expect(Negotiation(accept: "application/json").wantsJSON)
        #expect(!Negotiation(accept: "text/html,*/*").wantsJSON)
    }

    @Test func ifNoneMatchComparesWeaklyAndAcceptsAStar() {
        #expect(Negotiation.matches(ifNoneMatch: "\"a\"", etag: "\"a\""))
        #expect(Negotiation.matches(ifNoneMatch: "\"x\", W/\"a\"", etag: "\"a\""))
        #expect(Negotiation.matches(ifNoneMatch: "*", etag: "\"a\""))
        #expect(!Negotiation.matches(ifNoneMatch: "\"b\"", etag: "\"a\""))
        #expect(!Negotiation.matches(ifNoneMatch: "a", etag: "\"a\""))
    }

    @Test func httpDatesRoundTrip() throws {
        let date = try #require(HTTPDate.date("Wed, 21 Oct 2015 07:28:00 GMT"))
        #expect(date.timeIntervalSince1970 == 1_445_412_480)
        #expect(HTTPDate.string(date) == "Wed, 21 Oct 2015 07:28:00 GMT")
        #expect(HTTPDate.date("yesterday") == nil)
    }
}
