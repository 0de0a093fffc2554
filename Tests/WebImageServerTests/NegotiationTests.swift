import Foundation
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

    @Test func httpDatesAgreeWithFoundationsFormatter() throws {
        let reference = DateFormatter()
        reference.locale = Locale(identifier: "en_US_POSIX")
        reference.timeZone = TimeZone(identifier: "GMT")
        reference.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var generator = SystemRandomNumberGenerator()
        let samples =
            [0, 951_782_400, 4_107_542_399, 253_402_300_799]
            + (0..<2000).map { _ in
                Int.random(in: 0...4_102_444_800, using: &generator)
            }
        for seconds in samples {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds) + 0.75)
            let text = HTTPDate.string(date)
            #expect(text == reference.string(from: date), "\(seconds)")
            #expect(HTTPDate.date(text)?.timeIntervalSince1970 == TimeInterval(seconds), "\(text)")
        }
    }

    @Test func httpDatesInTheObsoleteFormsAndOutOfRange() {
        #expect(HTTPDate.date("Sunday, 06-Nov-94 08:49:37 GMT")?.timeIntervalSince1970 == 784_111_777)
        #expect(HTTPDate.date("Sun Nov  6 08:49:37 1994")?.timeIntervalSince1970 == 784_111_777)
        #expect(HTTPDate.date("Sun, 06 Nov 1994 08:49:37 GMT")?.timeIntervalSince1970 == 784_111_777)
        for invalid in [
            "", "Sun, 06 Nov 1994 08:49:37", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:49 GMT", "Sun, 06 Nov 99999999999999999999 1:2:3 GMT",
            "Sunday, 06-Nov-1994 08:49:37 GMT", "Sun, -6 Nov 1994 08:49:37 GMT",
        ] {
            #expect(HTTPDate.date(invalid) == nil, "\(invalid)")
        }
        #expect(HTTPDate.string(Date(timeIntervalSince1970: -5)) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.string(Date(timeIntervalSince1970: .infinity)) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.string(Date(timeIntervalSince1970: 1e300)) == "Fri, 31 Dec 9999 23:59:59 GMT")
    }
}
