import Foundation
import Testing

@testable import WebImageStores

/// Where a request goes for each addressing: the URL, the `Host` header and the signed path.
@Suite struct S3AddressingTests {
    private func target(
        _ endpoint: String, _ addressing: S3Addressing, bucket: String = "images", key: String? = "in/a b.jpg",
        connectHost: String? = nil
    ) throws -> S3RequestTarget {
        try S3RequestTarget(
            endpoint: URL(string: endpoint)!, addressing: addressing, bucket: bucket, key: key,
            connectHost: connectHost)
    }

    @Test func pathStyle() throws {
        let path = try target("http://127.0.0.1:8333", .path)
        #expect(path.url == "http://127.0.0.1:8333/images/in/a%20b.jpg")
        #expect(path.host == "127.0.0.1:8333")
        #expect(path.path == "/images/in/a b.jpg")
        // An endpoint with a path keeps it; the bucket itself is its path segment.
        let prefixed = try target("https://proxy.example/s3/", .path, key: nil)
        #expect(prefixed.url == "https://proxy.example/s3/images")
        #expect(prefixed.host == "proxy.example")
        #expect(prefixed.path == "/s3/images")
        let v6 = try target("http://[::1]:9000", .virtual)
        #expect(v6.url == "http://[::1]:9000/images/in/a%20b.jpg")
        #expect(v6.host == "[::1]:9000")
    }

    @Test func virtualHosted() throws {
        let virtual = try target("http://localhost:9000", .virtual)
        #expect(virtual.url == "http://images.localhost:9000/in/a%20b.jpg")
        #expect(virtual.host == "images.localhost:9000")
        #expect(virtual.path == "/in/a b.jpg")
        let bucket = try target("https://s3.eu-west-1.amazonaws.com", .virtual, key: nil)
        #expect(bucket.url == "https://images.s3.eu-west-1.amazonaws.com/")
        #expect(bucket.path == "/")
        // The connection can go elsewhere while the Host header and the signature keep the virtual host.
        let local = try target("http://localhost:9000", .virtual, connectHost: "127.0.0.1")
        #expect(local.url == "http://127.0.0.1:9000/in/a%20b.jpg")
        #expect(local.host == "images.localhost:9000")
    }

    @Test func virtualFallsBackToPathWhereAHostNameCannotBeMade() throws {
        #expect(try target("http://10.0.0.1:9000", .virtual).host == "10.0.0.1:9000")
        #expect(try target("http://store:9000", .virtual, bucket: "Images").host == "store:9000")
        #expect(try target("http://store:9000", .virtual, bucket: "my_images").host == "store:9000")
        #expect(try target("http://store:9000", .virtual, bucket: "ab").host == "store:9000")
        #expect(try target("http://store:9000", .virtual, bucket: "192.168.1.1").host == "store:9000")
        // Dots are fine over HTTP, not over HTTPS (the certificate's wildcard covers one label).
        #expect(try target("http://store:9000", .virtual, bucket: "a.b.c").host == "a.b.c.store:9000")
        #expect(try target("https://store", .virtual, bucket: "a.b.c").host == "store")
        #expect(try target("http://store", .virtual, bucket: "a..b").host == "store")
    }

    @Test func autoIsVirtualOnAWSOnly() throws {
        #expect(try target("https://s3.us-east-1.amazonaws.com", .auto).host == "images.s3.us-east-1.amazonaws.com")
        #expect(
            try target("https://s3.cn-north-1.amazonaws.com.cn", .auto).host == "images.s3.cn-north-1.amazonaws.com.cn")
        #expect(try target("http://minio.internal:9000", .auto).host == "minio.internal:9000")
        #expect(S3Addressing(name: " Virtual ") == .virtual)
        #expect(S3Addressing(name: "dns") == nil)
    }
}
