import Foundation
import HummingbirdTesting
import Testing
import WebImage
import WebImageServer
import WebImageTesting

/// The watermark through a live server: the setting from bytes, a file or a URL on the origin, and the option.
@Suite("Server: watermark end to end")
struct WatermarkServerTests {
    static let green = RGBA(red: 0, green: 255, blue: 0)
    /// A 20×10 opaque green PNG.
    static let mark = try! ImageCoders.default.encode(
        Image(pixels: PixelBuffer(width: 20, height: 10, filledWith: green)), as: .png, options: .default)

    @Test func aWatermarkFromBytesIsLaidOverTheResult() async throws {
        try await ServerHarness.run(configure: { $0.watermark = WatermarkConfiguration(source: .data(Self.mark)) }) {
            harness in
            // geometry.png: 200×100, left half red, right half blue.
            let marked = try ServerHarness.image(try await harness.get(harness.url("wm:1:soea:10:5", "/geometry.png")))
            #expect(marked.size == PixelSize(width: 200, height: 100))
            #expect(marked.pixels[170, 85] == Self.green && marked.pixels[189, 89] == Self.green)
            #expect(marked.pixels[190, 89] == RGBA(red: 0, green: 0, blue: 255))
            #expect(marked.pixels[10, 10] == RGBA(red: 255, green: 0, blue: 0))
            let plain = try ServerHarness.image(try await harness.get(harness.url("", "/geometry.png")))
            #expect(plain.pixels[170, 85] == RGBA(red: 0, green: 0, blue: 255))
            let off = try ServerHarness.image(try await harness.get(harness.url("wm:0:soea", "/geometry.png")))
            #expect(off.pixels == plain.pixels)
        }
    }

    @Test func aWatermarkFromAURLIsFetchedOnceAtStartThroughTheSourceLoader() async throws {
        try await ServerHarness.run(configureWithOrigin: { configuration, origin in
            origin.register(Self.mark, at: "/wm.png")
            configuration.watermark = WatermarkConfiguration(source: .url(origin.url("/wm.png")), opacity: 0.5)
        }) { harness in
            #expect(harness.origin.requestCount("/wm.png") == 1, "fetched at start, as imgproxy fetches it")
            _ = try await harness.get(harness.url("", "/geometry.png"))
            async let first = harness.get(harness.url("wm:1:nowe", "/geometry.png"))
            async let second = harness.get(harness.url("wm:1:nowe", "/geometry.jpg"))
            let responses = try await [first, second]
            #expect(responses.map(\.status.code) == [200, 200])
            let marked = try ServerHarness.image(responses[0])
            // Half opacity (the setting's 0.5 × the option's 1): green over red.
            #expect(marked.pixels[5, 5] == RGBA(red: 128, green: 128, blue: 0))
            #expect(marked.pixels[25, 5] == RGBA(red: 255, green: 0, blue: 0))
            _ = try await harness.get(harness.url("wm:1:re", "/geometry.png"))
            #expect(harness.origin.requestCount("/wm.png") == 1)
        }
    }

    @Test func aWatermarkURLKeepsTheSourceAddressRules() async throws {
        await #expect(throws: ImageServerConfigurationError.self) {
            try await ServerHarness.run(configureWithOrigin: { configuration, origin in
                origin.register(Self.mark, at: "/wm.png")
                configuration.watermark = WatermarkConfiguration(source: .url(origin.url("/wm.png")))
                configuration.addressPolicy = .publicOnly
            }) { _ in Issue.record("the loopback origin is refused for the watermark at start") }
        }
    }

    /// As imgproxy, a watermark URL that cannot be fetched stops the server from starting; a server mounted without
    /// ``ImageServer/prepare()`` fetches it at the first request that asks for it, and again after a failure.
    @Test func aMissingWatermarkURLStopsTheStartOrFailsTheRequestsThatAskForIt() async throws {
        await #expect(throws: ImageServerConfigurationError.self) {
            try await ServerHarness.run(configureWithOrigin: { configuration, origin in
                configuration.watermark = WatermarkConfiguration(source: .url(origin.url("/missing.png")))
            }) { _ in Issue.record("a watermark that cannot be fetched stops the start") }
        }
        try await ServerHarness.run(
            configureWithOrigin: { configuration, origin in
                configuration.watermark = WatermarkConfiguration(source: .url(origin.url("/missing.png")))
            }, prepares: false
        ) { (harness: ServerHarness) async throws in
            #expect(try await harness.get(harness.url("wm:1", "/geometry.png")).status.code == 404)
            #expect(try await harness.get(harness.url("", "/geometry.png")).status.code == 200)
            harness.origin.register(Self.mark, at: "/missing.png")
            #expect(try await harness.get(harness.url("wm:1", "/geometry.png")).status.code == 200, "tried again")
        }
    }

    @Test func aWatermarkFileIsReadAtStart() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wm-\(UUID().uuidString).png")
        try Self.mark.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await ServerHarness.run(configure: { $0.watermark = WatermarkConfiguration(source: .path(file)) }) {
            harness in
            let marked = try ServerHarness.image(try await harness.get(harness.url("wm:1:nowe", "/geometry.png")))
            #expect(marked.pixels[0, 0] == Self.green)
        }
    }

    @Test func withoutAWatermarkTheOptionIsIgnored() async throws {
        try await ServerHarness.run { harness in
            let marked = try await harness.get(harness.url("wm:1:re", "/geometry.png"))
            #expect(marked.status.code == 200)
            let plain = try await harness.get(harness.url("", "/geometry.png"))
            #expect(try ServerHarness.image(marked).pixels == ServerHarness.image(plain).pixels)
        }
    }

    @Test func badWatermarkSettingsAreStartupErrors() {
        func error(_ watermark: WatermarkConfiguration) -> String? {
            var configuration = ImageServerConfiguration()
            configuration.watermark = watermark
            do {
                _ = try ImageServer(configuration: configuration)
                return nil
            } catch {
                return error.setting
            }
        }
        #expect(error(WatermarkConfiguration(source: .data(Data("not an image".utf8)))) == "watermark-data")
        #expect(
            error(WatermarkConfiguration(source: .path(URL(fileURLWithPath: "/nonexistent/wm.png"))))
                == "watermark-path")
        #expect(error(WatermarkConfiguration(source: .data(Self.mark), opacity: 0)) == "watermark-opacity")
        #expect(error(WatermarkConfiguration(source: .data(Self.mark), opacity: 1.5)) == "watermark-opacity")
        #expect(error(WatermarkConfiguration(source: .data(Self.mark), opacity: .nan)) == "watermark-opacity")
        #expect(error(WatermarkConfiguration(source: .url(URL(string: "ftp://e.example/wm.png")!))) == "watermark-url")
        #expect(error(WatermarkConfiguration(source: .url(URL(string: "https://e.example/wm.png")!))) == nil)
    }
}
