#!/bin/sh
# The cost of the load instrumentation (issue 18) per memory hit, measured on its own:
# builds Benchmarks/Telemetry in release with the library's LoadMetrics.swift copied in,
# and prints a Markdown table (ns per operation, median of 9 runs of 1M).
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/Benchmarks/Telemetry"
cp "$root/Sources/PostFeed/Telemetry/LoadMetrics.swift" Sources/bench-telemetry/LoadMetrics.swift
swift build -c release >&2
"$(swift build -c release --show-bin-path)/bench-telemetry"
