#!/bin/sh
# The micro benchmarks (ordo-one/package-benchmark, Benchmarks/Benchmarks/*): memory-cache
# hit, disk-cache hit, JSON parse, page decode. Extra arguments go to the plugin, e.g.
#
#   sh scripts/bench-micro.sh --target Caches
#   sh scripts/bench-micro.sh --filter "Page decode.*"
#
# The plugin builds the targets in release mode itself and prints a table per benchmark.
set -eu
cd "$(dirname "$0")/../Benchmarks"
exec swift package --disable-sandbox benchmark --no-progress "$@"
