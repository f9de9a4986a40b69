// swift-tools-version:6.2
import PackageDescription

// The cost of the load instrumentation on its own (scripts/bench-telemetry.sh): the
// library's `LoadMetrics.swift`, copied in by the script, and the span calls a load makes,
// against the no-op backends and against MetricsTestKit's TestMetrics. Standalone (only
// swift-metrics and swift-distributed-tracing), so it builds in release in seconds rather
// than with the whole package.
let package = Package(
    name: "bench-telemetry",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        .executableTarget(
            name: "bench-telemetry",
            dependencies: [
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
    ]
)
