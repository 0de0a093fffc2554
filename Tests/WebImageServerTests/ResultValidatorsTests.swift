import Foundation
import Testing
import WebImage

@testable import WebImageServer

/// ``ResponseValidators`` (imgproxy 4's conditional headers) and the validators ``ResultStore`` keeps with each result.
@Suite("Server: result validators")
struct ResultValidatorsTests {
    static let date = "Wed, 21 Oct 2015 07:28:00 GMT"

    static func validators(_ change: (inout HTTPConfiguration) -> Void = { _ in }) -> ResponseValidators {
        var configuration = HTTPConfiguration()
        change(&configuration)
        return ResponseValidators(configuration)
    }

    @Test func headersAreTheOriginsWithTheBusters() {
        let plain = Self.validators()
        #expect(
            plain.etag(origin: "\"a\"") == "\"a\"" && plain.etag(origin: nil) == nil && plain.etag(origin: "") == nil)
        #expect(plain.lastModified(origin: Self.date) == Self.date && plain.lastModified(origin: "yesterday") == nil)
        let busted = Self.validators {
            $0.etagBuster = "v2"
            $0.lastModifiedBuster = Date(timeIntervalSince1970: 1_577_836_800)
        }
        #expect(busted.etag(origin: "\"e1\"") == "\"v2/ImUxIg\"")
        #expect(busted.lastModified(origin: Self.date) == "Wed, 01 Jan 2020 00:00:00 GMT")
        #expect(busted.lastModified(origin: "Fri, 01 Jan 2021 00:00:00 GMT") == "Fri, 01 Jan 2021 00:00:00 GMT")
        let off = Self.validators {
            $0.usesETag = false
            $0.usesLastModified = false
        }
        #expect(off.etag(origin: "\"a\"") == nil && off.lastModified(origin: Self.date) == nil)
    }

    @Test func theOriginIsAskedAsImgproxyAsksIt() {
        let plain = Self.validators()
        let both = plain.originConditions(ifNoneMatch: "\"a\"", ifModifiedSince: Self.date)
        #expect(both.etag == "\"a\"" && both.lastModified == Self.date)
        let busted = Self.validators {
            $0.etagBuster = "v2"
            $0.lastModifiedBuster = Date(timeIntervalSince1970: 1_577_836_800)
        }
        #expect(busted.originConditions(ifNoneMatch: "W/\"v2/ImUxIg\"", ifModifiedSince: nil).etag == "\"e1\"")
        let foreign = busted.originConditions(ifNoneMatch: "\"e1\"", ifModifiedSince: "Fri, 01 Jan 2021 00:00:00 GMT")
        #expect(foreign.etag == nil && foreign.lastModified == nil, "no buster: nothing is sent, as imgproxy aborts")
        #expect(busted.originConditions(ifNoneMatch: nil, ifModifiedSince: Self.date).lastModified == nil)
        let later = busted.originConditions(ifNoneMatch: nil, ifModifiedSince: "Fri, 01 Jan 2021 00:00:00 GMT")
        #expect(later.lastModified == "Fri, 01 Jan 2021 00:00:00 GMT")
    }

    @Test func aStoredResultIsComparedAsTheOriginWouldCompareIt() {
        let plain = Self.validators()
        func same(_ inm: String?, _ ims: String?, _ etag: String?, _ lm: String?) -> Bool {
            plain.isNotModified(ifNoneMatch: inm, ifModifiedSince: ims, etag: etag, lastModified: lm)
        }
        #expect(
            same("\"a\"", nil, "\"a\"", nil) && same("\"b\", W/\"a\"", nil, "\"a\"", nil)
                && same("*", nil, "\"a\"", nil))
        #expect(!same("\"b\"", Self.date, "\"a\"", Self.date), "the ETag decides when both sides have one")
        #expect(same("\"b\"", Self.date, nil, Self.date), "else the date")
        #expect(same(nil, Self.date, "\"a\"", Self.date) && !same(nil, "Tue, 20 Oct 2015 07:28:00 GMT", nil, Self.date))
        #expect(!same(nil, nil, "\"a\"", Self.date) && !same("\"a\"", nil, nil, nil))
    }

    @Test func aDiskEntryWithoutValidatorsIsAMissAndEveryTierKeepsThem() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wis-results-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = DiskCache(directory: directory)
        let store = ResultStore(disk: disk, memoryBytes: 0)
        let png = try ImageCoders.default.encode(Image(pixels: TestImages.geometry), as: .png, options: .default)
        let key = ResultKey(options: ProcessingOptions(), source: "http://a.example/b.png", format: FormatRequest(.png))
        try await disk.store(
            png, forKey: key.hex, attributes: CacheEntryAttributes(format: .png, lastModified: Self.date))
        #expect(await store.local(key) == nil, "stored before results kept validators: a miss")
        try await disk.store(png, forKey: key.hex, attributes: CacheEntryAttributes(format: .png, etag: ""))
        let bare = try #require(await store.local(key)).0
        #expect(bare.etag == nil && bare.lastModified == nil && bare.origin == ImageValidators())

        let made = ResultKey(
            options: ProcessingOptions(), source: "http://a.example/c.png", format: FormatRequest(.png))
        let origin = ImageValidators(etag: "\"m\"", lastModified: Self.date)
        _ = try await store.result(for: made) { () async throws(ImageServerError) in
            ProcessedImage(data: png, format: .png, size: PixelSize(width: 200, height: 100), source: origin)
        }
        let reopened = ResultStore(disk: DiskCache(directory: directory), memoryBytes: 0)
        let kept = try #require(await reopened.local(made)).0
        #expect(kept.etag == "\"m\"" && kept.lastModified == Self.date && kept.origin == origin)
    }
}
