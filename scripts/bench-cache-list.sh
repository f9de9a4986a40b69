#!/usr/bin/env bash
# The cache and list benchmarks: `postfeed-bench cache` and `postfeed-bench list` (the
# Benchmarks/ package) from a release build, each printing Markdown tables (results are
# written up in BENCHMARKS.md). `make bench` runs this after scripts/bench.sh; it also runs alone:
#
#   bash scripts/bench-cache-list.sh                      everything (6-10 minutes on 2 cores)
#   bash scripts/bench-cache-list.sh --out results.md     also write the tables to a file
#   BENCH_CACHE_ARGS="--only memory" BENCH_LIST_ARGS="--only restore" bash scripts/bench-cache-list.sh
#
# Needs: swift, libcurl4-openssl-dev (as the package). Uses hyperfine for a cross-check
# when installed (apt-get install hyperfine). Scratch data goes to $TMPDIR and is removed;
# the 100k-entry disk case takes about 600 MB there while it runs.
set -euo pipefail

cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
OUT=""
if [[ "${1:-}" == "--out" ]]; then
    OUT=${2:?"--out needs a file name"}
fi

# The product binary as it ships (`make release`): the Swift runtime and Foundation linked
# in statically, which halves process start-up. The restore benchmark times whole
# `postfeed list` processes of this binary.
echo "bench-cache-list: building postfeed (release, static Swift runtime)…" >&2
"$SWIFT" build -c release --static-swift-stdlib --product postfeed >&2
POSTFEED="$("$SWIFT" build -c release --show-bin-path)/postfeed"

# The benchmarks themselves, linked the same way: the image replay times fresh processes
# of this binary (its `image-replay-worker` mode), start-up included.
echo "bench-cache-list: building postfeed-bench (Benchmarks/, release, static Swift runtime)…" >&2
"$SWIFT" build --package-path Benchmarks -c release --static-swift-stdlib --product postfeed-bench >&2
BENCH="$("$SWIFT" build --package-path Benchmarks -c release --show-bin-path)/postfeed-bench"

run() {
    "$BENCH" "$@"
    echo
}

# shellcheck disable=SC2086  # the *_ARGS variables are word lists on purpose
{
    run cache ${BENCH_CACHE_ARGS:-}
    run list --postfeed "$POSTFEED" ${BENCH_LIST_ARGS:-}
} | if [[ -n "$OUT" ]]; then tee "$OUT"; else cat; fi
