import Foundation
import Testing
import WebImage
import WebImageTesting

@Suite("Loading: file and data: loaders")
struct LoadingLocalTests {
    let file = Fixtures.directory.appendingPathComponent("corpus/images/exif_Landscape_1.jpg")

    @Test func fileURLAndPathLoad() async throws {
        let expected = try Data(contentsOf: file)
        let loader = FileImageLoader()
        let loaded1 = try await loader.load(file)
        #expect(loaded1.data == expected)
        let pathURL = try #require(FileImageLoader.url(for: file.path))
        let response = try await loader.load(pathURL)
        #expect(response.data == expected)
        #expect(response.contentType == "image/jpeg")
        #expect(FileImageLoader.url(for: "https://example.com/a.png") == nil)
    }

    @Test func missingFileIsFileNotFound() async {
        let error = await expectError(.fileNotFound) { () async throws(WebImageError) in
            try await FileImageLoader().load(URL(fileURLWithPath: "/no/such/file.png"))
        }
        #expect(error?.isTransient == false)
    }

    @Test func directoryIsUnreadable() async {
        let error = await expectError(.fileUnreadable) { () async throws(WebImageError) in
            try await FileImageLoader().load(Fixtures.directory)
        }
        #expect(error?.message.contains("directory") == true)
    }

    @Test(.disabled(if: getuid() == 0, "root reads files without permission"))
    func unreadableFileIsUnreadable() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("unreadable-\(UUID()).png")
        try Data([1, 2, 3]).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: url.path)
        await expectError(.fileUnreadable) { () async throws(WebImageError) in try await FileImageLoader().load(url) }
    }

    @Test func fileOverTheLimitIsTooLarge() async {
        var options = ImageLoaderOptions()
        options.maxBodySize = 100
        await expectError(.bodyTooLarge) { () async throws(WebImageError) in
            try await FileImageLoader().load(file, options: options)
        }
    }

    @Test func base64DataURI() async throws {
        let bytes = try Data(contentsOf: file)
        let url = try #require(URL(string: "data:image/jpeg;base64,\(bytes.base64EncodedString())"))
        let response = try await DataURLImageLoader().load(url)
        #expect(response.data == bytes)
        #expect(response.contentType == "image/jpeg")
    }

    @Test func percentEncodedDataURI() async throws {
        let url = try #require(URL(string: "data:image/png,%89PNG%0D%0A%1A%0A%00%01"))
        let response = try await DataURLImageLoader().load(url)
        #expect(response.data == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x01]))
        #expect(response.contentType == "image/png")
    }

    @Test(arguments: ["data:image/png;base64", "data:image/png;base64,!!!notbase64", "data:image/png;base64,AAA"])
    func malformedDataURIIsInvalidSource(text: String) async throws {
        let url = try #require(URL(string: text))
        let error = await expectError(.invalidSource) { () async throws(WebImageError) in
            try await DataURLImageLoader().load(url)
        }
        #expect(error?.message.contains("malformed") == true)
    }

    @Test func nonImageDataURIIsRefusedByTheValidator() async throws {
        let url = try #require(URL(string: "data:text/plain,hello"))
        await expectError(.invalidResponse) { () async throws(WebImageError) in try await DataURLImageLoader().load(url)
        }
    }

    @Test func compositePicksTheFirstLoaderThatCanLoad() async throws {
        let loaders = ImageLoaders([DataURLImageLoader(), FileImageLoader()])
        #expect(loaders.canLoad(file))
        #expect(loaders.loader(for: file) is FileImageLoader)
        #expect(loaders.loader(for: URL(string: "data:,x")!) is DataURLImageLoader)
        #expect(!loaders.canLoad(URL(string: "https://example.com/a.png")!))
        let loaded2 = try await loaders.load(file)
        #expect(loaded2.data.count > 0)
        await expectError(.invalidSource) { () async throws(WebImageError) in
            try await loaders.load(URL(string: "gopher://x/y")!)
        }
    }
}
