// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

// The sanitizer builds (`make test-tsan`, `make test-asan`) leave grpc-swift out (WEBIMAGE_NO_OTEL; it came with
// swift-otel 1.6, which did not compile under the sanitizers with Swift 6.3, and is not checked there): `webimage
// serve` then exports over OTLP/HTTP only (the server's own exporters), refuses OTLP/gRPC at start, and the tests
// that need it are skipped.
let exportsTraces = Context.environment["WEBIMAGE_NO_OTEL"] == nil

let package = Package(
    name: "swift-web-image",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "WebImage", targets: ["WebImage"]),
        .library(name: "WebImageTesting", targets: ["WebImageTesting"]),
        .library(name: "WebImageServer", targets: ["WebImageServer"]),
        .library(name: "WebImageStores", targets: ["WebImageStores"]),
        .executable(name: "webimage", targets: ["webimage"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // The OTLP exporters' TLS (the collector's CA, a client certificate).
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.29.0"),
        // `make docs`: the DocC catalogues of WebImage, WebImageServer and WebImageStores, with the snippets of
        // `Snippets/` (the README's examples, compiled by every build).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CSPNG", pkgConfig: "spng", providers: [.apt(["libspng-dev"])]),
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CAVIF", pkgConfig: "libavif", providers: [.apt(["libavif-dev"])]),
        .systemLibrary(name: "CHEIF", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(name: "CTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
        .systemLibrary(name: "CJXL", pkgConfig: "libjxl", providers: [.apt(["libjxl-dev"])]),
        .systemLibrary(name: "CRSVG", pkgConfig: "librsvg-2.0", providers: [.apt(["librsvg2-dev", "libxml2-dev"])]),
        .systemLibrary(name: "CImageQuant", pkgConfig: "imagequant", providers: [.apt(["libimagequant-dev"])]),
        .target(
            name: "WebImage",
            dependencies: [
                "CJPEG", "CSPNG", "CGIF", "CWebP", "CZlib", "CAVIF", "CHEIF", "CLCMS2",
                "CImageQuant", "CTIFF", "CJXL", "CRSVG",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strict
        ),
        // The scale-out pieces, kept out of the core library: an S3 client (Signature V4) for a shared cache tier and
        // nginx's consistent-hash ring.
        .target(
            name: "WebImageStores",
            dependencies: [
                "WebImage", "CZlib",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "WebImageTesting",
            dependencies: [
                "WebImage", "WebImageServer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "WebImageServer",
            dependencies: [
                "WebImage", "WebImageStores", "CZlib",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "webimage",
            dependencies: [
                // TurboJPEG and lcms2 directly: `webimage demo` makes progressive, grey and CMYK JPEGs and a Display
                // P3 profile, which the library's encoders do not.
                "WebImage", "WebImageServer", "WebImageStores", "CJPEG", "CLCMS2",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict + (exportsTraces ? [.define("WEBIMAGE_OTEL")] : [])
        ),
        .executableTarget(
            name: "webimage-bench",
            dependencies: [
                "WebImage", "WebImageTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "Benchmarks/Sources/webimage-bench",
            swiftSettings: strict
        ),
        // A child process for the disk cache tests (kill -9 mid-write, two processes sharing a directory).
        .executableTarget(
            name: "webimage-cache-writer",
            dependencies: ["WebImage", "WebImageTesting"],
            path: "Tests/webimage-cache-writer",
            swiftSettings: strict
        ),
        .testTarget(
            name: "WebImageTests",
            dependencies: [
                "WebImage", "WebImageTesting", "webimage-cache-writer", "webimage",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WebImageServerTests",
            dependencies: [
                "WebImageServer", "WebImage", "WebImageTesting", "webimage",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Talks to real SeaweedFS and nginx processes (installed by `make test`).
        .testTarget(
            name: "WebImageStoresTests",
            dependencies: [
                "WebImageStores", "WebImageServer", "WebImage", "WebImageTesting", "webimage",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: strict
        ),
    ]
)

// The OTLP/gRPC exporter (grpc-swift-2, its NIO transport and swift-certificates).
if exportsTraces {
    package.dependencies += [
        .package(url: "https://github.com/grpc/grpc-swift-2.git", from: "2.0.0"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport.git", from: "2.0.0"),
    ]
    // The OTLP/gRPC transport of the spans, metrics and log records (grpc-swift-2's client, messages as raw bytes).
    for target in package.targets where target.name == "webimage" {
        target.dependencies += [
            .product(name: "GRPCCore", package: "grpc-swift-2"),
            .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
        ]
    }
    // The tests' own OTLP collectors: over gRPC, and over HTTP with TLS.
    for target in package.targets where target.name == "WebImageStoresTests" {
        target.dependencies += [
            .product(name: "GRPCCore", package: "grpc-swift-2"),
            .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
            .product(name: "HummingbirdTLS", package: "hummingbird"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]
    }
}

// Coverage-guided fuzz targets for libFuzzer (`make fuzz`, `make fuzz-smoke`), declared only when WEBIMAGE_FUZZ is set:
// they build with `-sanitize=fuzzer,address` in their own build folder, never as part of a plain `swift build`.
if Context.environment["WEBIMAGE_FUZZ"] != nil {
    package.targets.append(.target(name: "FuzzDriver", path: "Fuzz/fuzz-driver", swiftSettings: strict))
    let entries: [(String, Target.Dependency)] =
        [
            "fuzz-decode", "fuzz-thumbnail", "fuzz-info", "fuzz-partial", "fuzz-transform", "fuzz-url", "fuzz-info-url",
            "fuzz-jxl", "fuzz-svg",
        ].map { ($0, "WebImageTesting") } + [("fuzz-svg-sanitize", "WebImageServer")]
    for (name, entry) in entries {
        package.targets.append(
            .executableTarget(
                name: name, dependencies: ["FuzzDriver", entry], path: "Fuzz/\(name)", swiftSettings: strict))
        package.products.append(.executable(name: name, targets: [name]))
    }
}
