// swift-tools-version:6.1
import Foundation
import PackageDescription

// libFuzzer targets, one per parser of outside data (STYLE.md item 18). Built apart from
// the product, with `-sanitize=fuzzer,address`, by `make fuzz` (Fuzz/run.sh).
let rootPackage = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "PostFeedFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        // Helpers shared by the targets: header lines the way the engine reads them.
        .target(name: "FuzzSupport", dependencies: [.product(name: "PostFeedHTTP", package: rootPackage)]),
        .executableTarget(name: "fuzz-json", dependencies: ["FuzzSupport", .product(name: "PostFeedModels", package: rootPackage)]),
        .executableTarget(name: "fuzz-link-header", dependencies: ["FuzzSupport", .product(name: "PostFeed", package: rootPackage)]),
        .executableTarget(name: "fuzz-page", dependencies: ["FuzzSupport", .product(name: "PostFeed", package: rootPackage), .product(name: "PostFeedModels", package: rootPackage)]),
        .executableTarget(name: "fuzz-post", dependencies: ["FuzzSupport", .product(name: "PostFeed", package: rootPackage), .product(name: "PostFeedModels", package: rootPackage)]),
        .executableTarget(name: "fuzz-backend-config", dependencies: ["FuzzSupport", .product(name: "PostFeed", package: rootPackage)]),
        .executableTarget(name: "fuzz-state-file", dependencies: ["FuzzSupport", .product(name: "PostFeed", package: rootPackage)]),
        .executableTarget(name: "fuzz-cache-entry", dependencies: ["FuzzSupport", .product(name: "PostFeedCache", package: rootPackage)]),
        .executableTarget(name: "fuzz-image-sniff", dependencies: ["FuzzSupport", .product(name: "PostFeed", package: rootPackage)]),
        .executableTarget(name: "fuzz-header-lines", dependencies: ["FuzzSupport", .product(name: "PostFeedHTTP", package: rootPackage)]),
        // The image decoders (PostFeedImaging), one target per format for coverage of each.
        .target(name: "ImageFuzzing", dependencies: [.product(name: "PostFeedImaging", package: rootPackage)]),
        .executableTarget(name: "fuzz-image-jpeg", dependencies: ["FuzzSupport", "ImageFuzzing", .product(name: "PostFeedImaging", package: rootPackage)]),
        .executableTarget(name: "fuzz-image-png", dependencies: ["FuzzSupport", "ImageFuzzing", .product(name: "PostFeedImaging", package: rootPackage)]),
        .executableTarget(name: "fuzz-image-webp", dependencies: ["FuzzSupport", "ImageFuzzing", .product(name: "PostFeedImaging", package: rootPackage)]),
        .executableTarget(name: "fuzz-image-gif", dependencies: ["FuzzSupport", "ImageFuzzing", .product(name: "PostFeedImaging", package: rootPackage)]),
        // The feed parser (RSS, Atom, JSON Feed through libxml2 and JSONValue) and the
        // HTML/Markdown-to-text renderer (PostFeedFormats).
        .executableTarget(name: "fuzz-feed", dependencies: ["FuzzSupport", .product(name: "PostFeedFormats", package: rootPackage)]),
        .executableTarget(name: "fuzz-html-text", dependencies: ["FuzzSupport", .product(name: "PostFeedFormats", package: rootPackage)]),
        .executableTarget(name: "fuzz-http-dates", dependencies: ["FuzzSupport", .product(name: "PostFeed", package: rootPackage), .product(name: "PostFeedHTTP", package: rootPackage)]),
    ]
)
