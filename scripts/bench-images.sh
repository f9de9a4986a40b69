#!/usr/bin/env bash
# The image preview benchmark (issue 17, "Speed"): a preview of a 1600×1200 JPEG and a
# 1200×900 PNG at 40×20 cells, symbols and kitty, drawn by PostFeedImaging
# (`postfeed-bench-preview`: decode scaled for the box + render with libchafa, written to
# /dev/null) against the `chafa` command on the same file and size, side by side in one
# run. Both are timed as whole processes by hyperfine (a fresh process each run, so both
# pay their start-up; no thumbnail cache: "cold"; the file itself is in the OS page cache
# for both). Then decode + render timed inside the process, and the peak memory (max RSS
# from /usr/bin/time -v) of a JPEG preview with the scaled decode against a full decode.
# `make bench` runs this after the others; it also runs alone:
#
#   bash scripts/bench-images.sh                   everything (about 2 minutes)
#   bash scripts/bench-images.sh --out results.md  also write the tables to a file
#   BENCH_IMAGES_RUNS=50 bash scripts/bench-images.sh
#
# Needs: swift, the image libraries (as the package), chafa, hyperfine and GNU time
# (`make bench` installs the last three when missing). The test images are made by
# `postfeed-bench-preview --generate` (deterministic; Benchmarks/Sources/
# postfeed-bench-preview/BenchImages.swift) into a temporary folder, removed at the end.
set -euo pipefail

cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
RUNS=${BENCH_IMAGES_RUNS:-20}
CELLS=40x20
OUT=""
if [[ "${1:-}" == "--out" ]]; then
    OUT=${2:?"--out needs a file name"}
fi
for tool in chafa hyperfine; do
    command -v "$tool" >/dev/null || { echo "bench-images: $tool is missing (apt-get install $tool, or make bench)" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "bench-images: GNU time is missing (apt-get install time, or make bench)" >&2; exit 1; }

# Linked like the product binary (`make release`): the Swift runtime statically.
echo "bench-images: building postfeed-bench-preview (Benchmarks/, release, static Swift runtime)…" >&2
"$SWIFT" build --package-path Benchmarks -c release --static-swift-stdlib --product postfeed-bench-preview >&2
PREVIEW="$("$SWIFT" build --package-path Benchmarks -c release --show-bin-path)/postfeed-bench-preview"

# The commit measured (BENCH_COMMIT when git cannot tell, e.g. in a bind-mounted worktree).
COMMIT=${BENCH_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo '?')}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"$PREVIEW" --generate "$WORK" >/dev/null
JPEG=$WORK/photo-1600x1200.jpg
PNG=$WORK/photo-1200x900.png
BIG_JPEG=$WORK/photo-4800x3600.jpg

# Min / median / max of each command in a hyperfine JSON export, in ms, and the ratio of
# the medians to the second command's (chafa with the same settings).
summarize() { # json image format
    python3 - "$@" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
def stats(r):
    t = sorted(r["times"])
    return t[0] * 1000, statistics.median(t) * 1000, t[-1] * 1000
ours, chafa, chafa_defaults = (stats(r) for r in results)
ratio = ours[1] / chafa[1]
print("| %s | %s | %.1f / %.1f / %.1f | %.1f / %.1f / %.1f | **%.2f×** | %s | %.1f |" % (
    sys.argv[2], sys.argv[3], *ours, *chafa, ratio, "met" if ratio <= 0.5 else "**missed**", chafa_defaults[1]))
PY
}

{
echo "Run of $(date -u '+%Y-%m-%d %H:%M UTC') at $COMMIT:" \
    "$(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)," \
    "$(. /etc/os-release && echo "$PRETTY_NAME"), $(chafa --version | head -1), hyperfine $(hyperfine --version | cut -d' ' -f2)."
echo
echo "### Preview at $CELLS cells, cold: whole processes, wall time over $RUNS runs (3 warm-up), ms"
echo
echo "PostFeed: \`postfeed-bench-preview FILE --size $CELLS --format F\`; chafa:" \
    "\`chafa --size $CELLS --format F --colors full --symbols all FILE\` (the renderer's settings:" \
    "true colour, every symbol); the last column is chafa with its own defaults (\`chafa --size $CELLS --format F FILE\`)."
echo
echo "| image | format | PostFeed min / median / max | chafa min / median / max | PostFeed ÷ chafa (medians) | target ≤ 0.5× | chafa, defaults (median) |"
echo "|---|---|---:|---:|---:|---|---:|"
for image in "$JPEG" "$PNG"; do
    for format in symbols kitty; do
        hyperfine -N --warmup 3 --runs "$RUNS" --export-json "$WORK/run.json" \
            "$PREVIEW $image --size $CELLS --format $format" \
            "chafa --size $CELLS --format $format --colors full --symbols all $image" \
            "chafa --size $CELLS --format $format $image" >/dev/null
        summarize "$WORK/run.json" "$(basename "$image")" "$format"
    done
done
# TODO(issue 17, thumbnail cache): the preview read from the thumbnail cache (a derived
# disk-cache entry, no decode of the original), target ≤ 0.1× chafa. It needs the
# thumbnail cache in PostFeed (another change); time `postfeed show ID` with a warm
# thumbnail against the chafa rows above once it exists.
echo "| from the thumbnail cache | symbols, kitty | not measured yet | — | — | target ≤ 0.1× | — |"
echo
echo "### Decode + render inside one process, ms (the same bytes $RUNS times; the first run apart)"
echo
echo "| image | format | decode | decode first | decode min / median / max | render first | render min / median / max | total first | total min / median / max | output bytes |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|"
for image in "$JPEG" "$PNG"; do
    for format in symbols kitty; do
        "$PREVIEW" --time "$image" --size "$CELLS" --format "$format" --runs "$RUNS"
    done
done
"$PREVIEW" --time "$JPEG" --size "$CELLS" --format symbols --runs "$RUNS" --full-decode
echo
echo "### Peak memory of a JPEG preview ($CELLS cells, symbols): max RSS from /usr/bin/time -v, median of 3"
echo
echo "| original | PostFeed, scaled decode | PostFeed, full decode | chafa | original's RGBA pixels |"
echo "|---|---:|---:|---:|---:|"
max_rss() { # command…: median max RSS in MiB over three runs
    for _ in 1 2 3; do
        /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ {print $2}'
    done | sort -n | sed -n 2p | awk '{printf "%.1f MiB", $1 / 1024}'
}
for image in "$JPEG" "$BIG_JPEG"; do
    size=$(basename "$image" .jpg | sed 's/photo-//')
    pixels=$(echo "$size" | awk -Fx '{printf "%.1f MiB", $1 * $2 * 4 / 1048576}')
    echo "| $size JPEG | $(max_rss "$PREVIEW" "$image" --size "$CELLS") | $(max_rss "$PREVIEW" "$image" --size "$CELLS" --full-decode)" \
        "| $(max_rss chafa --size "$CELLS" --format symbols --colors full --symbols all "$image") | $pixels |"
done
} | if [[ -n "$OUT" ]]; then tee "$OUT"; else cat; fi
