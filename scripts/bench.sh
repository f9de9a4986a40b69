#!/bin/sh
# Builds the fetch benchmark in release mode and runs it; extra arguments go to it
# (e.g. `scripts/bench.sh --concurrency 16 --repeats 3`). The table goes to stdout,
# progress to stderr.
set -eu
cd "$(dirname "$0")/../Benchmarks"
swift build -c release --product postfeed-bench-fetch >&2
exec "$(swift build -c release --show-bin-path)/postfeed-bench-fetch" "$@"
