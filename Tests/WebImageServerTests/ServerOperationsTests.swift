import Foundation
import HummingbirdTesting
import Testing
import WebImage
import WebImageTesting

@testable import WebImageServer

/// `/metrics`, the request log, HEAD's Content-Length, the origin's Last-Modified, AVIF and GIF results.
@Suite("Server: metrics, logs and the issue 18 leftovers")
struct ServerOperationsTests {
    @Test func metricsCountRequestsStagesBytesAndOriginErrors() async throws {
        try await ServerHarness.run { harness in
            let url = harness.url("w:50", "/geometry.png")
            let miss = try await harness.get(url)
            #expect(miss.status == .ok)
            #expect(try await harness.get(url).status == .ok)
            #expect(try await harness.get(harness.url("w:50", "/status/404")).status.code == 404)
            #expect(try await harness.get(harness.url("w:50", "/status/500")).status.code == 502)
            let response = try await harness.get("/metrics")
            #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
            let metrics = MetricsText(String(buffer: response.body))
            #expect(metrics.value("webimage_requests_total", ["status": "200", "cache": "miss"]) == 1)
            #expect(metrics.value("webimage_requests_total", ["status": "200", "cache": "memory"]) == 1)
            #expect(metrics.value("webimage_requests_total", ["status": "502"]) == 1)
            #expect(metrics.value("webimage_origin_fetches_total") == 1)
            #expect(metrics.value("webimage_processing_runs_total") == 1)
            #expect(metrics.value("webimage_origin_errors_total", ["kind": "status_4xx"]) == 1)
            #expect(metrics.value("webimage_origin_errors_total", ["kind": "status_5xx"]) == 1)
            for stage in ["queue_wait", "download", "decode", "transform", "encode"] {
                #expect(metrics.value("webimage_stage_duration_seconds_count", ["stage": stage]) == 1, "\(stage)")
            }
            #expect(metrics.value("webimage_processing_queue_depth") == 0)
            #expect(metrics.value("webimage_processing_in_flight") == 0)
            #expect((metrics.value("webimage_bytes_in_total") ?? 0) > 0)
            #expect(metrics.value("webimage_bytes_out_total") == Double(miss.body.readableBytes * 2))
        }
    }

    @Test func errorsFallIntoImgproxysCategories() {
        let url = URL(string: "http://127.0.0.1/a.jpg")
        #expect(ImageServerError(status: 403, "invalid signature").imgproxyCategory == "security")
        #expect(ImageServerError(status: 404, "invalid URL").imgproxyCategory == "path_parsing")
        #expect(ImageServerError(status: 503, "server is busy", retryAfter: 1).imgproxyCategory == "queue")
        #expect(ImageServerError(status: 503, "request timed out").imgproxyCategory == "timeout")
        #expect(SourceFetcher.map(WebImageError(.timedOut, "slow", url: url)).imgproxyCategory == "timeout")
        #expect(SourceFetcher.map(WebImageError(.bodyTooLarge, "big", url: url)).imgproxyCategory == "image_data_size")
        #expect(
            SourceFetcher.map(WebImageError(.badStatus, "500", url: url, httpStatus: 500)).imgproxyCategory
                == "download")
        #expect(
            ImageProcessor.unprocessable(WebImageError(.corruptData, "bad", url: url)).imgproxyCategory == "processing")
    }

    @Test(arguments: ["", "imgproxy"])
    func imgproxysSeriesUnderItsNamesAndTheNamespace(namespace: String) async throws {
        try await ServerHarness.run(configure: { $0.metricsNamespace = namespace }) { harness in
            let url = harness.url("w:50", "/geometry.png")
            #expect(try await harness.get(url).status == .ok)
            #expect(try await harness.get(url).status == .ok)
            #expect(try await harness.get(harness.url("w:50", "/status/404")).status.code == 404)
            #expect(try await harness.get("/insecure/w:x/plain/http://a").status.code == 404)
            let metrics = MetricsText(String(buffer: try await harness.get("/metrics").body))
            let prefix = namespace.isEmpty ? "" : namespace + "_"
            #expect(metrics.value(prefix + "requests_total") == 4)
            #expect(metrics.value(prefix + "status_codes_total", ["status": "200"]) == 2)
            #expect(metrics.value(prefix + "status_codes_total", ["status": "404"]) == 2)
            #expect(metrics.value(prefix + "errors_total", ["type": "download"]) == 1)
            #expect(metrics.value(prefix + "errors_total", ["type": "path_parsing"]) == 1)
            #expect(metrics.value(prefix + "request_duration_seconds_count") == 4)
            #expect(metrics.value(prefix + "download_duration_seconds_count") == 1)
            #expect(metrics.value(prefix + "processing_duration_seconds_count") == 1)
            for span in ["queue", "downloading_source_image", "processing_image"] {
                #expect(metrics.value(prefix + "request_span_duration_seconds_count", ["span": span]) == 1, "\(span)")
            }
            #expect(metrics.value(prefix + "buffer_size_bytes_count", ["type": "download"]) == 1)
            #expect(metrics.value(prefix + "requests_in_progress") == 0, "the /metrics request is not an image request")
            #expect(metrics.value(prefix + "images_in_progress") == 0)
            #expect((metrics.value(prefix + "workers") ?? 0) >= 1)
            #expect(metrics.value(prefix + "webimage_requests_total", ["status": "200", "cache": "memory"]) == 1)
            #expect(metrics.value(prefix + "webimage_origin_fetches_total") == 1)
        }
    }

    @Test func oneLogLinePerRequestWithoutPathsOrSecrets() async throws {
        let capture = LogCapture()
        let signer = try #require(URLSigner(hexKey: "0011", hexSalt: "2233"))
        let logger = capture.logger
        try await ServerHarness.run(configure: {
            $0.logger = logger
            $0.signer = signer
        }) { (harness: ServerHarness) async throws in
            let source = harness.source("/geometry.png?token=secret123")
            let path = "/w:10/plain/" + (source.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "")
            let signature = signer.signature(for: path)
            #expect(try await harness.get("/" + signature + path).status == .ok)
            #expect(try await harness.get("/bad" + path).status.code == 403)
            let lines = capture.lines.withLock { $0 }.filter { $0.hasPrefix("info request") }
            #expect(lines.count == 2, "\(lines)")
            #expect(lines.first?.contains("status=200") == true)
            #expect(lines.first?.contains("cache=miss") == true)
            #expect(lines.first?.contains("source_host=127.0.0.1") == true)
            #expect(lines.last?.contains("status=403") == true)
            for line in capture.lines.withLock({ $0 }) where !line.hasPrefix("debug") && !line.hasPrefix("trace") {
                #expect(
                    !line.contains(signature) && !line.contains("secret123") && !line.contains("geometry"), "\(line)")
            }
        }
    }

    @Test func requestLogSinkTakesTheLinesInsteadOfTheLogger() async throws {
        let capture = LogCapture()
        let entries = Locked<[RequestLogEntry]>([])
        let logger = capture.logger
        try await ServerHarness.run(configure: {
            $0.logger = logger
            $0.requestLog = { entry in entries.withLock { $0.append(entry) } }
        }) { (harness: ServerHarness) async throws in
            #expect(try await harness.get(harness.url("w:10", "/geometry.png")).status == .ok)
            #expect(try await harness.get("/unsafe/w:10/plain/").status.code == 404)
            let logged = entries.withLock { $0 }
            #expect(logged.map(\.status) == [200, 404])
            #expect(logged.first?.cache == "miss" && logged.first?.sourceHost == "127.0.0.1")
            #expect(logged.first.map { $0.bytes > 0 && $0.seconds > 0 && $0.method == "GET" } == true)
            #expect(logged.first?.fields.map(\.key) == logged.first?.fields.map(\.key).sorted())
            #expect(capture.lines.withLock { $0 }.filter { $0.hasPrefix("info request") }.isEmpty)
        }
    }

    @Test func getCarriesContentLength() async throws {
        try await ServerHarness.run { harness in
            let get = try await harness.get(harness.url("w:50", "/geometry.png"))
            #expect(get.headers[.contentLength] == String(get.body.readableBytes))
        }
    }

    @Test func lastModifiedIsTheOriginsAndAnswersIfModifiedSince() async throws {
        try await ServerHarness.run { harness in
            let url = harness.url("w:50", "/geometry.png")
            let response = try await harness.get(url)
            #expect(response.headers[.lastModified] == "Wed, 21 Oct 2015 07:28:00 GMT")
            let again = try await harness.get(url, headers: [.ifModifiedSince: "Wed, 21 Oct 2015 07:28:00 GMT"])
            #expect(again.status == .notModified)
            let older = try await harness.get(url, headers: [.ifModifiedSince: "Tue, 20 Oct 2015 07:28:00 GMT"])
            #expect(older.status == .ok)
        }
    }

    @Test func avifAndGIFResultsAndAnimatedGIFStaysAnimated() async throws {
        try await ServerHarness.run(configure: {
            $0.autoAVIF = true
            $0.autoWebP = true
        }) { harness in
            let avif = try await harness.get(harness.url("w:50", "/geometry.png", ext: "avif"))
            #expect(avif.headers[.contentType] == "image/avif")
            #expect(try ServerHarness.image(avif).size == PixelSize(width: 50, height: 25))
            let gif = try await harness.get(harness.url("w:20", "/anim.webp", ext: "gif"))
            #expect(gif.headers[.contentType] == "image/gif")
            let frames = try ServerHarness.image(gif)
            #expect(frames.frames.count == 5)
            #expect(frames.size == PixelSize(width: 20, height: 10))
            let negotiated = try await harness.get(
                harness.url("w:50", "/geometry.png"), headers: [.accept: "image/avif,image/webp,*/*"])
            #expect(negotiated.headers[.contentType] == "image/avif")
            #expect(negotiated.headers[.vary] == "Accept")
            let webp = try await harness.get(harness.url("w:50", "/geometry.png"), headers: [.accept: "image/webp"])
            #expect(webp.headers[.contentType] == "image/webp")
        }
    }

    @Test(arguments: [
        (WebImageError.Code.timedOut, 504, "timeout"), (.bodyTooLarge, 422, "too_large"),
        (.forbiddenSource, 404, "forbidden"), (.connectionFailed, 404, "unreachable"), (.cancelled, 503, "cancelled"),
        (.incompleteResponse, 422, "incomplete"),
    ])
    func originFailuresMapToImgproxysStatusAndAMetricsKind(code: WebImageError.Code, status: Int, kind: String) {
        let mapped = SourceFetcher.map(WebImageError(code, "test"))
        #expect(mapped.status == status)
        #expect(mapped.originFailure?.rawValue == kind)
    }

}
