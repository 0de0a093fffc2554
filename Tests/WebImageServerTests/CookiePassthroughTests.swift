import Foundation
import Testing

@testable import WebImageServer

/// Which cookies go to a source, as imgproxy's `cookies` package (a Go cookie jar of the request's URL) decides.
@Suite("Cookie passthrough")
struct CookiePassthroughTests {
    private func request(
        _ cookies: [String], host: String? = "images.example:8080", forwardedHost: String? = nil,
        forwardedProto: String? = nil, forwardedPort: String? = nil
    ) -> CookiePassthrough.ClientRequest {
        CookiePassthrough.ClientRequest(
            cookies: cookies, host: host, forwardedProto: forwardedProto, forwardedHost: forwardedHost,
            forwardedPort: forwardedPort)
    }

    private func source(_ text: String) -> URL { URL(string: text)! }

    @Test func cookiesOfTheRequestsHostGoToSourcesOnThatHostOnly() {
        let passthrough = CookiePassthrough()
        let client = request(["a=1; b=2", "c=3"])
        #expect(passthrough.header(for: client, source: source("https://images.example/x.png")) == "a=1; b=2; c=3")
        #expect(passthrough.header(for: client, source: source("http://IMAGES.example:9000/x.png")) == "a=1; b=2; c=3")
        #expect(passthrough.header(for: client, source: source("https://cdn.images.example/x.png")) == nil)
        #expect(passthrough.header(for: client, source: source("https://other.example/x.png")) == nil)
        #expect(passthrough.header(for: client, source: source("s3://images.example/x.png")) == nil)
        #expect(passthrough.header(for: request([]), source: source("https://images.example/x.png")) == nil)
        #expect(passthrough.header(for: request(["a=1"], host: nil), source: source("https://images.example/")) == nil)
    }

    @Test func forwardedHeadersNameTheRequestsURL() {
        let passthrough = CookiePassthrough()
        let client = request(["a=1"], forwardedHost: "www.example", forwardedProto: "https", forwardedPort: "443")
        #expect(passthrough.header(for: client, source: source("https://www.example/x.png")) == "a=1")
        #expect(passthrough.header(for: client, source: source("https://images.example/x.png")) == nil)
        let ftp = request(["a=1"], forwardedProto: "ftp")
        #expect(passthrough.header(for: ftp, source: source("https://images.example/x.png")) == nil)
    }

    @Test func theBaseURLsHostAndPathDecide() {
        let passthrough = CookiePassthrough(baseURL: URL(string: "https://media.example/photos/index.html"))
        let client = request(["a=1"])
        #expect(passthrough.header(for: client, source: source("https://media.example/photos/x.png")) == "a=1")
        #expect(passthrough.header(for: client, source: source("https://media.example/photos")) == "a=1")
        #expect(passthrough.header(for: client, source: source("https://media.example/photosx/x.png")) == nil)
        #expect(passthrough.header(for: client, source: source("https://media.example/x.png")) == nil)
        #expect(passthrough.header(for: client, source: source("https://images.example/photos/x.png")) == nil)
        let relative = CookiePassthrough(baseURL: URL(string: "media.example"))
        #expect(relative.header(for: client, source: source("https://media.example/x.png")) == nil)
    }

    @Test func passthroughAllSendsEveryCookieToAnySource() {
        let passthrough = CookiePassthrough(passesAll: true, baseURL: URL(string: "https://media.example/"))
        #expect(passthrough.header(for: request(["a=1"]), source: source("https://other.example/x")) == "a=1")
        #expect(passthrough.header(for: request([]), source: source("https://other.example/x")) == nil)
    }

    @Test func cookiesAreReadAndWrittenAsGoReadsAndWritesThem() {
        #expect(CookiePassthrough.parse(["a=1;b=2 ;  c"]).map { "\($0.name)=\($0.value)" } == ["a=1", "b=2", "c="])
        #expect(CookiePassthrough.parse(["q=\"x y\"; s=x,y"]).map(\.value) == ["\"x y\"", "\"x,y\""])
        #expect(CookiePassthrough.parse(["bad name=1; ok=2; v=a\\b; w=\"\""]).map(\.name) == ["ok", "w"])
        #expect(CookiePassthrough.parse(["a=1; b=2", "a=3"]).map { "\($0.name)=\($0.value)" } == ["a=3", "b=2"])
        #expect(CookiePassthrough.parse([";;", "=1", ""]).isEmpty)
    }

    @Test func cookiePathsFollowRFC6265() {
        #expect(CookiePassthrough.defaultPath("") == "/")
        #expect(CookiePassthrough.defaultPath("/") == "/")
        #expect(CookiePassthrough.defaultPath("/a") == "/")
        #expect(CookiePassthrough.defaultPath("/a/b") == "/a")
        #expect(CookiePassthrough.pathMatches("/a/b", cookiePath: "/a"))
        #expect(CookiePassthrough.pathMatches("/a", cookiePath: "/a"))
        #expect(!CookiePassthrough.pathMatches("/ab", cookiePath: "/a"))
        #expect(CookiePassthrough.pathMatches("", cookiePath: "/"))
    }

    @Test func fetchSettingsAndConnectionTimeoutsAreChecked() {
        var fetching = FetchSettings()
        #expect(fetching.resolvedUserAgent == "imgproxy/\(FetchSettings.currentVersion)")
        fetching.userAgent = ""
        #expect(throws: ImageServerConfigurationError.self) { try fetching.validate() }
        fetching.userAgent = "line\nbreak"
        #expect(throws: ImageServerConfigurationError.self) { try fetching.validate() }
        fetching.userAgent = "ok"
        fetching.clientKeepAlive = .seconds(-1)
        #expect(throws: ImageServerConfigurationError.self) { try fetching.validate() }
        var timeouts = ConnectionTimeouts()
        timeouts.keepAlive = .zero
        #expect(throws: Never.self) { try timeouts.validate() }
        timeouts.readRequest = .zero
        #expect(throws: ImageServerConfigurationError.self) { try timeouts.validate() }
        timeouts.readRequest = .seconds(1)
        timeouts.writeResponse = .seconds(86_401)
        #expect(throws: ImageServerConfigurationError.self) { try timeouts.validate() }
    }
}
