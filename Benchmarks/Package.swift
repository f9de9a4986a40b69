// swift-tools-version:6.2
import Foundation
import PackageDescription

// Benchmarks live apart from the tests, in their own package, so their dependencies
// (AsyncHTTPClient for comparison) never reach PostFeed's users. Run with
// `scripts/bench.sh` from the repository root.

// A path dependency is named by its folder, which differs between checkouts
// (`postfeed`, a worktree's name…): read it rather than hard-coding it.
let rootPackage = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "PostFeedBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
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
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ]
        ),
    ]
)
