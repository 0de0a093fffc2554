import Foundation
import Testing
import WebImageTesting

@testable import WebImage

@Suite("Loading: HTTPImageLoader")
struct LoadingHTTPTests {
    @Test func loadsRegisteredBytesWithMetadataAndProgress() async throws {
        try await withServer { server, loader in
            let data = try Fixtures.data("corpus/images/exif_Landscape_1.jpg")
            server.register(data, at: "/a.jpg", contentType: "image/jpeg", etag: "\"v1\"")
            let recorder = ProgressRecorder()
            let response = try await loader.load(
                ImageLoadRequest(url: server.url("/a.jpg?chunk=1000")), progress: recorder.handler,
                partialData: recorder.partialHandler)
            #expect(response.data == data)
            #expect(response.httpStatus == 200)
            #expect(response.contentType == "image/jpeg")
            #expect(response.etag == "\"v1\"")
            #expect(response.lastModified == "Wed, 21 Oct 2015 07:28:00 GMT")
            #expect(response.expectedLength == data.count)
            let calls = recorder.calls.withLock { $0 }
            #expect(calls.count > 1)
            #expect(calls.last?.received == data.count)
            #expect(calls.allSatisfy { $0.expected == data.count })
            #expect(zip(calls, calls.dropFirst()).allSatisfy { $0.received < $1.received })
            #expect(recorder.partials.withLock { $0.last } == data.count)
            let agent = server.stats.lastHeaders["/a.jpg"]?.first { $0.name.lowercased() == "user-agent" }?.value
            #expect(agent == ImageLoaderOptions.defaultUserAgent)
        }
    }

    @Test func requestModifierHeadersReachTheServer() async throws {
        try await withServer { server, loader in
            var options = ImageLoaderOptions()
            options.requestModifier = .bearer("s3cret").then(.headers(["X-Test": "1"]))
            _ = try await loader.load(server.url("/generated/auth"), options: options)
            let headers = server.stats.lastHeaders["/generated/auth"] ?? []
            #expect(headers.contains { $0.name.lowercased() == "authorization" && $0.value == "Bearer s3cret" })
            #expect(headers.contains { $0.name.lowercased() == "x-test" && $0.value == "1" })
        }
    }

    @Test func chunkedBodyWithoutContentLength() async throws {
        try await withServer { server, loader in
            let response = try await loader.load(server.url("/generated/c?chunked=1&chunk=777"))
            #expect(response.expectedLength == nil)
            #expect(response.data.count == 100_000)
            #expect(ImageFormat.sniff(response.data) == .jpeg)
        }
    }

    @Test func conditionalRequestSurfaces304() async throws {
        try await withServer { server, loader in
            server.register(
                Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]), at: "/e.png", etag: "\"abc\"")
            let first = try await loader.load(server.url("/e.png"))
            #expect(first.etag == "\"abc\"")
            var options = ImageLoaderOptions()
            options.ifNoneMatch = first.etag
            let second = try await loader.load(server.url("/e.png"), options: options)
            #expect(second.isNotModified)
            #expect(second.data.isEmpty)
            options = ImageLoaderOptions()
            options.ifModifiedSince = first.lastModified
            let loaded1 = try await loader.load(server.url("/e.png"), options: options)
            #expect(loaded1.isNotModified)
            options.ifModifiedSince = "Thu, 01 Jan 1970 00:00:00 GMT"
            let loaded2 = try await loader.load(server.url("/e.png"), options: options)
            #expect(loaded2.httpStatus == 200)
        }
    }

    @Test(arguments: [(404, false), (403, false), (410, false), (500, true), (503, true), (429, true), (408, true)])
    func badStatusIsClassified(status: Int, transient: Bool) async throws {
        try await withServer { server, loader in
            let error = await expectError(.badStatus) { () async throws(WebImageError) in
                try await loader.load(server.url("/status/\(status)"))
            }
            #expect(error?.httpStatus == status)
            #expect(error?.isTransient == transient)
        }
    }

    @Test func htmlWith200IsRefused() async throws {
        try await withServer { server, loader in
            let error = await expectError(.invalidResponse) { () async throws(WebImageError) in
                try await loader.load(server.url("/html"))
            }
            #expect(error?.isTransient == false)
            // Image bytes mislabelled as HTML are still accepted: sniffing wins.
            let loaded3 = try await loader.load(server.url("/generated/x?type=text/html"))
            #expect(loaded3.data.count == 100_000)
        }
    }

    @Test func decryptorRunsBeforeValidation() async throws {
        try await withServer { server, loader in
            let image = try Fixtures.data("corpus/images/exif_Landscape_1.jpg")
            server.register(Data(image.base64EncodedString().utf8), at: "/b64", contentType: "text/plain")
            await expectError(.invalidResponse) { () async throws(WebImageError) in
                try await loader.load(server.url("/b64"))
            }
            var options = ImageLoaderOptions()
            options.decryptor = .base64
            let loaded4 = try await loader.load(server.url("/b64"), options: options)
            #expect(loaded4.data == image)
        }
    }

    @Test func redirectsAreFollowedUpToTheLimit() async throws {
        try await withServer { server, loader in
            let response = try await loader.load(server.url("/redirect/5?to=/generated/r"))
            #expect(response.url.path == "/generated/r")
            #expect(response.data.count == 100_000)
            await expectError(.tooManyRedirects) { () async throws(WebImageError) in
                try await loader.load(server.url("/redirect/6?to=/generated/r"))
            }
            var options = ImageLoaderOptions()
            options.redirectLimit = 0
            await expectError(.tooManyRedirects) { () async throws(WebImageError) in
                try await loader.load(server.url("/redirect/1?to=/generated/r"), options: options)
            }
        }
    }

    @Test func redirectLoopIsDetected() async throws {
        try await withServer { server, loader in
            let error = await expectError(.tooManyRedirects) { () async throws(WebImageError) in
                try await loader.load(server.url("/loop/a"))
            }
            #expect(error?.message.contains("loop") == true)
            #expect(server.requestCount("/loop/a") == 1)
            #expect(server.requestCount("/loop/b") == 1)
        }
    }
}
