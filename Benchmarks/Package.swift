// swift-tools-version:6.1
import Foundation
import PackageDescription

// Benchmarks live apart from the tests, in their own package, so their dependencies
// (AsyncHTTPClient for comparison, package-benchmark) never reach PostFeed's users.
// `make bench` from the repository root runs all of them:
//
//   Sources/postfeed-bench-fetch   the HTTP engine vs curl, URLSession, AsyncHTTPClient and
//                                  bare libcurl (scripts/bench.sh)
//   Sources/postfeed-bench         process-level benchmarks: `postfeed-bench cache`,
//                                  `postfeed-bench list`, `postfeed-bench fetch`,
//                                  `postfeed-bench thumbnail` (scripts/bench-images.sh)
//                                  (scripts/bench-cache-list.sh)
//   Sources/postfeed-bench-preview one terminal preview of an image file (decode scaled +
//                                  render), timed as a process against the `chafa` command
//                                  (scripts/bench-images.sh)
//   Sources/postfeed-bench-formats the feed parser and HTML-to-text renderer against
//                                  xmllint, Python's xml.etree, html2text and w3m
//                                  (scripts/bench-formats.sh)
//   Benchmarks/Caches, Decoding    micro benchmarks on ordo-one/package-benchmark
//                                  (`swift package benchmark`, scripts/bench-micro.sh)

// A path dependency is named by its folder, which differs between checkouts
// (`postfeed`, a worktree's name…): read it rather than hard-coding it.
let rootPackage = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "PostFeedBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The baseline: a plain libcurl multi loop in C, no Swift in the transfer path.
        .target(
            name: "CBareCurl",
            linkerSettings: [.linkedLibrary("curl")]
        ),
        .executableTarget(
            name: "postfeed-bench-fetch",
            dependencies: [
                "CBareCurl",
                .product(name: "PostFeedHTTP", package: rootPackage),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // Process-level benchmarks, each printing Markdown tables: the caches and the image
        // pipeline (`cache`), restore and scroll memory (`list`), PostFeed vs curl (`fetch`).
        .executableTarget(
            name: "postfeed-bench",
            dependencies: [
                .product(name: "PostFeed", package: rootPackage),
                .product(name: "PostFeedCache", package: rootPackage),
                .product(name: "PostFeedHTTP", package: rootPackage),
                .product(name: "PostFeedImaging", package: rootPackage),
                .product(name: "PostFeedPreview", package: rootPackage),
                .product(name: "PostFeedRedis", package: rootPackage),
                .product(name: "PostFeedServer", package: rootPackage),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // The image preview against `chafa`: PostFeedImaging only, so that its process
        // start-up is the product's, not the other benchmarks'. The encoders make its test
        // images (`--generate`).
        .systemLibrary(name: "CBenchEncoders"),
        .executableTarget(
            name: "postfeed-bench-preview",
            dependencies: [
                "CBenchEncoders",
                .product(name: "PostFeedImaging", package: rootPackage),
            ],
            swiftSettings: swiftSettings
        ),
        // The feed parser against xmllint and Python's xml.etree, the HTML renderer against
        // html2text and w3m (scripts/bench-formats.sh). PostFeedFormats only.
        .executableTarget(
            name: "postfeed-bench-formats",
            dependencies: [.product(name: "PostFeedFormats", package: rootPackage)],
            swiftSettings: swiftSettings
        ),
        // Micro benchmarks (package-benchmark): sources under Benchmarks/<Name>/.
        .executableTarget(
            name: "Caches",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "PostFeedCache", package: rootPackage),
                .product(name: "PostFeedServer", package: rootPackage),
            ],
            path: "Benchmarks/Caches",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Decoding",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "PostFeed", package: rootPackage),
                .product(name: "PostFeedCache", package: rootPackage),
                .product(name: "PostFeedHTTP", package: rootPackage),
                .product(name: "PostFeedServer", package: rootPackage),
            ],
            path: "Benchmarks/Decoding",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
