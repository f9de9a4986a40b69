#!/bin/sh
# The micro benchmarks (ordo-one/package-benchmark, Benchmarks/Benchmarks/*): memory-cache
# hit, disk-cache hit, JSON parse, page decode. Extra arguments go to each benchmark
# executable, e.g.
#
#   sh scripts/bench-micro.sh --help
#
# Why the executables and not `swift package benchmark`: on Linux with Swift 6.3 the
# plugin's runner crashes (SIGSEGV) in the Swift runtime hooks it installs
# (package-benchmark issue #349; the fix needs ordo-one/swift-runtime-interposer, which
# SwiftPM cannot resolve here). Each benchmark target is an executable of its own that
# measures and prints its table when run directly, with the same metrics.
set -eu
cd "$(dirname "$0")/../Benchmarks"
swift build -c release --product Caches >&2
swift build -c release --product Decoding >&2
BIN="$(swift build -c release --show-bin-path)"
"$BIN/Caches" "$@"
"$BIN/Decoding" "$@"
