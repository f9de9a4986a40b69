// swift-tools-version:6.2
import PackageDescription

/// Settings shared by every target: Swift 6 language mode (strict concurrency) plus the
/// upcoming features that keep imports honest.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "PostFeed",
    platforms: [.macOS(.v15)],
    products: [
        // The core a service links: `import PostFeed` alone reaches the models and the HTTP
        // and cache settings; no terminal, image-decoding or Redis library.
        .library(name: "PostFeed", targets: ["PostFeed"]),
        // Terminal previews of images (decoders, libchafa, thumbnails), plugged into a client.
        .library(name: "PostFeedPreview", targets: ["PostFeedPreview"]),
        // The shared cache tier on Redis (hiredis), plugged into a client.
        .library(name: "PostFeedRedis", targets: ["PostFeedRedis"]),
        .library(name: "PostFeedModels", targets: ["PostFeedModels"]),
        .library(name: "PostFeedHTTP", targets: ["PostFeedHTTP"]),
        .library(name: "PostFeedCache", targets: ["PostFeedCache"]),
        .library(name: "PostFeedImaging", targets: ["PostFeedImaging"]),
        .library(name: "PostFeedFormats", targets: ["PostFeedFormats"]),
        .library(name: "PostFeedServer", targets: ["PostFeedServer"]),
        .executable(name: "postfeed", targets: ["postfeed"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // `swift package generate-documentation`: the DocC catalog, built in CI.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Tests only: a clock the suites advance instead of sleeping (TestClock).
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    ],
    targets: [
        // MARK: Library
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(
            name: "PostFeedHTTP",
            dependencies: [
                "CCurl",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The image decoders and the terminal renderer, from Debian's libraries.
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        // giflib ships no .pc file on Debian: the module map links `gif` directly.
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(
            name: "CChafa",
            pkgConfig: "chafa",
            providers: [.apt(["libchafa-dev", "libglib2.0-dev"])]
        ),
        // Bytes in, pixels or terminal output out: decoders (with a pixel-count limit read
        // from the header), an area-average downscaler and the chafa renderer. Knows
        // nothing of HTTP, posts or caches.
        .target(
            name: "PostFeedImaging",
            dependencies: ["CTurboJPEG", "CPNG", "CWebP", "CGIF", "CChafa"],
            swiftSettings: swiftSettings
        ),
        // hiredis for the shared cache tier (RedisCache), imported by PostFeedRedis only.
        // No pkgConfig: hiredis.pc's cflags carry `-D_FILE_OFFSET_BITS=64`, which SwiftPM
        // drops with a "prohibited flag(s)" warning on every build of every package that
        // resolves this one (issue 31); the shim includes <hiredis/hiredis.h> and the module
        // map links `hiredis`, all the .pc file gave.
        .systemLibrary(name: "CHiredis", providers: [.apt(["libhiredis-dev"])]),
        // CRC-32C for the disk cache's entry checksums, on the CPU's CRC instruction.
        .target(name: "CChecksum"),
        // SHA-256 of cache keys from OpenSSL's libcrypto, which libcurl already links
        // (libssl-dev, in the Makefile's packages): no BoringSSL to compile (560 C
        // files, minutes of every cold build).
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .target(
            name: "PostFeedCache",
            dependencies: [
                "CChecksum",
                "CLibCrypto",
            ],
            swiftSettings: swiftSettings
        ),
        // What client and server both speak: posts, pages, page keys, response bodies, and
        // one ordered JSON value with its parser. Foundation only.
        .target(name: "PostFeedModels", swiftSettings: swiftSettings),
        // libxml2 for the feed and HTML parsers, imported by PostFeedFormats only.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // Feed documents and text: RSS 2.0, Atom and JSON Feed to items; HTML and Markdown to
        // terminal text with numbered link references. No network, no external entities.
        .target(
            name: "PostFeedFormats",
            dependencies: ["PostFeedModels", "CLibXML2"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PostFeed",
            dependencies: [
                "PostFeedModels",
                "PostFeedFormats",
                "PostFeedHTTP",
                "PostFeedCache",
                .product(name: "Logging", package: "swift-log"),
                // `FeedClient: Service`: run in a ServiceGroup, drained on graceful shutdown.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // Counters, timers and gauges of the cached-HTTP path and the image pipeline;
                // a span per page and image load, its context injected into requests.
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        // Image previews for a terminal: the decoders and libchafa (PostFeedImaging) and the
        // thumbnail cache, plugged into a FeedClient as `ImagePreviews()`.
        .target(
            name: "PostFeedPreview",
            dependencies: [
                "PostFeed",
                "PostFeedImaging",
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),
        // The shared cache tier on Redis: RedisCache, a SharedDataCaching the core talks to;
        // and RedisPlaceStore, readers' places for several instances of a service.
        .target(
            name: "PostFeedRedis",
            dependencies: ["PostFeed", "PostFeedCache", "CHiredis"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PostFeedServer",
            dependencies: [
                "PostFeedModels",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "postfeed",
            dependencies: [
                "PostFeed",
                "PostFeedPreview",
                "PostFeedRedis",
                "PostFeedImaging",
                "PostFeedServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                // --verbose's per-run summary: a MetricsFactory of its own that adds counters up.
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),
        // A tiny process the cache tests start and kill with SIGKILL mid-write, and run
        // twice at once on one cache root (crash safety, multi-process sharing).
        .executableTarget(
            name: "cache-stress",
            dependencies: ["PostFeedCache"],
            path: "Tests/CacheStress",
            swiftSettings: swiftSettings
        ),

        // The smallest service on the core alone: CoreLinkageTests runs `ldd` on it.
        .executableTarget(
            name: "postfeed-core-probe",
            dependencies: ["PostFeed"],
            path: "Tests/CoreLinkProbe",
            swiftSettings: swiftSettings
        ),

        // MARK: Tests
        // Child processes for the suites: posix_spawn and waitpid, not Foundation's
        // `Process`, whose `run()` crashes under parallel suites in Swift 6.3.1.
        .target(name: "SuiteSupport", path: "Tests/SuiteSupport", swiftSettings: swiftSettings),
        .testTarget(
            name: "PostFeedModelsTests",
            dependencies: ["PostFeedModels", "PostFeedServer"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PostFeedFormatsTests",
            dependencies: ["PostFeedFormats", "PostFeedModels"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PostFeedHTTPTests",
            dependencies: ["PostFeedHTTP", "PostFeedServer", "SuiteSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PostFeedCacheTests",
            dependencies: ["PostFeedCache", "cache-stress", "SuiteSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PostFeedImagingTests",
            dependencies: ["PostFeedImaging", "CTurboJPEG", "CWebP", "CGIF", "CPNG"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PostFeedTests",
            dependencies: [
                "PostFeed", "PostFeedPreview", "PostFeedRedis", "PostFeedImaging", "PostFeedServer", "SuiteSupport",
                "postfeed-core-probe",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PostFeedServerTests",
            dependencies: [
                "PostFeedServer",
                "PostFeedModels",
                "SuiteSupport",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["postfeed", "PostFeed", "PostFeedServer", "SuiteSupport"],
            swiftSettings: swiftSettings
        ),
        // MARK: Documentation: every ```swift block of the README and the DocC articles compiles
        .executableTarget(name: "doc-snippets", path: "Tests/DocSnippets/Tool"),
        .plugin(
            name: "DocSnippetsPlugin", capability: .buildTool(), dependencies: ["doc-snippets"],
            path: "Plugins/DocSnippetsPlugin"),
        .testTarget(
            name: "DocSnippetTests",
            dependencies: [
                "PostFeed", "PostFeedHTTP", "PostFeedImaging", "PostFeedPreview", "PostFeedRedis",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                // "Embedding in a service" runs a FeedClient in a ServiceGroup.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings,
            plugins: ["DocSnippetsPlugin"]
        ),
    ]
)
