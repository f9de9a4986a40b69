#!/usr/bin/env bash
# The image preview benchmark (issue 17, "Speed"): a preview of a 1600×1200 JPEG and a
# 1200×900 PNG at 40×20 cells, symbols and kitty, drawn by PostFeedImaging
# (`postfeed-bench-preview`: decode scaled for the box + render with libchafa, written to
# /dev/null) against the `chafa` command on the same file and size, side by side in one
# run. Both are timed as whole processes by hyperfine (a fresh process each run, so both
# pay their start-up; no thumbnail cache: "cold"; the file itself is in the OS page cache
# for both). Then decode + render timed inside the process, and the peak memory (max RSS
# from /usr/bin/time -v) of a JPEG preview with the scaled decode against a full decode.
# Last, the preview from the thumbnail cache (the rendered preview stored as a derived
# disk-cache entry; no decode of the original): inside one process, `FeedClient.preview`
# called again on a warm thumbnail (`postfeed-bench thumbnail`) against the chafa medians
# measured above; and as whole processes, `postfeed show ID --images symbols` with the
# thumbnail present, without it, and with no cache at all, beside chafa at the box `show`
# draws in when piped (80×12 cells). The images are served by `postfeed serve` over a copy
# of Fixtures/ in which posts 1 and 42 carry the generated JPEG and PNG.
# `make bench` runs this after the others; it also runs alone:
#
#   bash scripts/bench-images.sh                   everything (about 2 minutes)
#   bash scripts/bench-images.sh --out results.md  also write the tables to a file
#   BENCH_PREVIEW=/path/to/postfeed-bench-preview bash scripts/bench-images.sh --cold
#                                                  the same, timing that build
#   bash scripts/bench-images.sh --cold            the cold tables only (preview against
#                                                  chafa, in-process times, peak memory):
#                                                  builds postfeed-bench-preview alone
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
COLD_ONLY=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --out) OUT=${2:?"--out needs a file name"}; shift 2 ;;
        --cold) COLD_ONLY=1; shift ;;
        *) echo "bench-images: unknown argument $1 (want --out FILE, --cold)" >&2; exit 2 ;;
    esac
done
for tool in chafa hyperfine; do
    command -v "$tool" >/dev/null || { echo "bench-images: $tool is missing (apt-get install $tool, or make bench)" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "bench-images: GNU time is missing (apt-get install time, or make bench)" >&2; exit 1; }

# Linked like the product binary (`make release`): the Swift runtime statically.
# BENCH_PREVIEW=PATH times another build of it instead (e.g. an earlier commit's, to
# compare in the same conditions).
if [[ -n "${BENCH_PREVIEW:-}" ]]; then
    PREVIEW=$BENCH_PREVIEW
else
    echo "bench-images: building postfeed-bench-preview (Benchmarks/, release, static Swift runtime)…" >&2
    "$SWIFT" build --package-path Benchmarks -c release --static-swift-stdlib --product postfeed-bench-preview >&2
    PREVIEW="$("$SWIFT" build --package-path Benchmarks -c release --show-bin-path)/postfeed-bench-preview"
fi
if [[ -z "$COLD_ONLY" ]]; then
    echo "bench-images: building postfeed-bench (thumbnail cache, in process) and postfeed (release)…" >&2
    "$SWIFT" build --package-path Benchmarks -c release --static-swift-stdlib --product postfeed-bench >&2
    BENCH="$("$SWIFT" build --package-path Benchmarks -c release --show-bin-path)/postfeed-bench"
    "$SWIFT" build -c release --static-swift-stdlib --product postfeed >&2
    POSTFEED="$("$SWIFT" build -c release --show-bin-path)/postfeed"
fi

# The commit measured (BENCH_COMMIT when git cannot tell, e.g. in a bind-mounted worktree).
COMMIT=${BENCH_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo '?')}
WORK=$(mktemp -d)
SERVER_PID=""
trap '[[ -n "$SERVER_PID" ]] && kill "$SERVER_PID" 2>/dev/null; rm -rf "$WORK"' EXIT
"$PREVIEW" --generate "$WORK" >/dev/null
JPEG=$WORK/photo-1600x1200.jpg
PNG=$WORK/photo-1200x900.png
BIG_JPEG=$WORK/photo-4800x3600.jpg

start_server() {
# The fixture backend for the thumbnail part: post 1 (img-001.jpg) shows the JPEG, post 42
# (img-060.png) the PNG.
cp -R Fixtures "$WORK/fixtures"
cp "$JPEG" "$WORK/fixtures/images/img-001.jpg"
cp "$PNG" "$WORK/fixtures/images/img-060.png"
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
BASE_URL=http://127.0.0.1:$PORT
"$POSTFEED" serve --port "$PORT" --fixtures "$WORK/fixtures" >/dev/null 2>&1 &
SERVER_PID=$!
for _ in $(seq 100); do
    curl -fs "$BASE_URL/api/posts?page=1&limit=1" >/dev/null && break
    sleep 0.1
done
curl -fs "$BASE_URL/api/posts?page=1&limit=1" >/dev/null || { echo "bench-images: postfeed serve did not start on $BASE_URL" >&2; exit 1; }
}
[[ -n "$COLD_ONLY" ]] || start_server

# Min / median / max of each command in a hyperfine JSON export, in ms, and the ratio of
# the medians to the second command's (chafa with the same settings).
summarize() { # json image format chafa-median-file
    python3 - "$@" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
def stats(r):
    t = sorted(r["times"])
    return t[0] * 1000, statistics.median(t) * 1000, t[-1] * 1000
def cpu(r):  # user + system, mean over the runs, ms
    return (r["user"] + r["system"]) * 1000
ours, chafa, chafa_defaults = (stats(r) for r in results)
ratio = ours[1] / chafa[1]
cpu_ours, cpu_chafa = cpu(results[0]), cpu(results[1])
open(sys.argv[4], "w").write("%f" % chafa[1])
print("| %s | %s | %.1f / %.1f / %.1f | %.1f / %.1f / %.1f | **%.2f×** | %s | %.1f / %.1f = %.2f× | %.1f |" % (
    sys.argv[2], sys.argv[3], *ours, *chafa, ratio, "met" if ratio <= 0.5 else "**missed**",
    cpu_ours, cpu_chafa, cpu_ours / cpu_chafa, chafa_defaults[1]))
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
    "\`chafa --size $CELLS --format F --colors full FILE\` (the renderer's settings:" \
    "true colour, chafa's standard symbols, block+border+space-wide-inverted); the last column is chafa with its own defaults (\`chafa --size $CELLS --format F FILE\`)." \
    "CPU is user + system time (mean per process, both processes' threads), which other load on the machine" \
    "disturbs less than wall time."
echo
echo "| image | format | PostFeed min / median / max | chafa min / median / max | PostFeed ÷ chafa (medians) | target ≤ 0.5× | CPU ms: PostFeed / chafa | chafa, defaults (median) |"
echo "|---|---|---:|---:|---:|---|---:|---:|"
for image in "$JPEG" "$PNG"; do
    for format in symbols kitty; do
        hyperfine -N --warmup 3 --runs "$RUNS" --export-json "$WORK/run.json" \
            "$PREVIEW $image --size $CELLS --format $format" \
            "chafa --size $CELLS --format $format --colors full $image" \
            "chafa --size $CELLS --format $format $image" >/dev/null
        summarize "$WORK/run.json" "$(basename "$image")" "$format" "$WORK/chafa-$(basename "$image")-$format.ms"
    done
done
# Kitty sends pixels, as many as the cells hold: PostFeed 10×20 px a cell by default
# (400×300 for the 40×15 cells a 4:3 image takes), chafa its own guess without a terminal
# to ask (320×120, 8×8 px a cell). The same cells at 8×16 px (320×240), for scale.
for image in "$JPEG" "$PNG"; do
    hyperfine -N --warmup 3 --runs "$RUNS" --export-json "$WORK/run.json" \
        "$PREVIEW $image --size $CELLS --format kitty --cell 8x16" \
        "chafa --size $CELLS --format kitty --colors full $image" \
        "chafa --size $CELLS --format kitty $image" >/dev/null
    summarize "$WORK/run.json" "$(basename "$image")" "kitty, 8×16-px cells" "$WORK/chafa-8x16.ms"
done
echo "| from the thumbnail cache | symbols, kitty | see \"Preview from the thumbnail cache\" below | — | — | target ≤ 0.1× | — | — |"
echo
sent() { # command…: the kitty image size a command sends, "s×v"
    "$@" | head -c 200 | grep -ao 's=[0-9]*,v=[0-9]*' | head -1 | sed 's/s=//; s/,v=/×/'
}
echo "Kitty pixels sent for $CELLS cells (the 1600×1200 JPEG): PostFeed $(sent "$PREVIEW" "$JPEG" --size "$CELLS" --format kitty)" \
    "(10×20 px a cell), $(sent "$PREVIEW" "$JPEG" --size "$CELLS" --format kitty --cell 8x16) at 8×16 px;" \
    "chafa $(sent chafa --size "$CELLS" --format kitty --colors full "$JPEG")."
echo
# The floor under both: starting the process and exiting, nothing drawn.
hyperfine -N --warmup 3 --runs "$RUNS" --export-json "$WORK/start.json" "$PREVIEW --help" "chafa --version" >/dev/null
python3 - "$WORK/start.json" <<'PY'
import json, statistics, sys
r = json.load(open(sys.argv[1]))["results"]
m = [statistics.median(x["times"]) * 1000 for x in r]
c = [(x["user"] + x["system"]) * 1000 for x in r]
print("Start-up alone (the same run): `postfeed-bench-preview --help` %.1f ms (CPU %.1f ms), `chafa --version` %.1f ms (CPU %.1f ms), medians." % (m[0], c[0], m[1], c[1]))
PY
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
        "| $(max_rss chafa --size "$CELLS" --format symbols --colors full "$image") | $pixels |"
done
if [[ -n "$COLD_ONLY" ]]; then exit 0; fi
echo
echo "### Preview from the thumbnail cache at $CELLS cells, inside one process, ms"
echo
echo "\`postfeed-bench thumbnail\`: \`FeedClient.preview(for:fittingIn:style:)\` on one client (true colour, every" \
    "symbol), the first call (image fetched from \`postfeed serve\` on 127.0.0.1, decoded, rendered, stored as a" \
    "thumbnail) then $RUNS more on the warm thumbnail (checked: the stored thumbnail, one decode in all). The" \
    "ratio divides the warm median by the median of the whole \`chafa\` process above (same file, size and" \
    "settings, this run): PostFeed's process start-up is not in it, chafa's is."
echo
echo "| image | format | first preview (cold) | warm min / median / max | output bytes | decodes | warm ÷ chafa process (medians) | target ≤ 0.1× |"
echo "|---|---|---:|---:|---:|---:|---:|---|"
for entry in "1 $JPEG" "42 $PNG"; do
    read -r post image <<<"$entry"
    for format in symbols kitty; do
        row=$("$BENCH" thumbnail --base-url "$BASE_URL" --post "$post" --size "$CELLS" --format "$format" \
            --runs "$RUNS" --label "$(basename "$image")")
        python3 - "$row" "$WORK/chafa-$(basename "$image")-$format.ms" <<'PY'
import sys
row, chafa = sys.argv[1], float(open(sys.argv[2]).read())
warm_median = float(row.strip("|").split("|")[3].split("/")[1])
ratio = warm_median / chafa
print("%s **%.3f×** | %s |" % (row, ratio, "met" if ratio <= 0.1 else "**missed**"))
PY
    done
done
echo
echo "### \`postfeed show ID --images symbols\` as whole processes against \`chafa\`, wall time over $RUNS runs (3 warm-up), ms"
echo
echo "Piped, \`show\` draws in 80×12 cells, so chafa gets \`--size 80x12\` here (\`--format symbols --colors full\`;" \
    "\`show\` runs with COLORTERM=truecolor). \`show\` also fetches post and prints its text;" \
    "warm: thumbnail, image and page cached (no decode, no network for the image); thumbnail removed: image on" \
    "disk, decoded and rendered again; empty cache: post and image fetched from \`postfeed serve\` on 127.0.0.1."
echo
echo "| image | chafa 80×12 | show, warm thumbnail | show, thumbnail removed | show, empty cache | warm ÷ chafa | thumbnail removed ÷ warm | empty ÷ warm |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for entry in "1 $JPEG" "42 $PNG"; do
    read -r post image <<<"$entry"
    cache=$WORK/show-cache-$post
    show=("$POSTFEED" show "$post" --images symbols --base-url "$BASE_URL" --cache-dir "$cache")
    COLORTERM=truecolor "${show[@]}" >/dev/null  # the thumbnail made once
    COLORTERM=truecolor hyperfine -N --warmup 3 --runs "$RUNS" --export-json "$WORK/show.json" \
        --prepare "true" --prepare "true" --prepare "rm -rf $cache/ThumbnailCache" --prepare "rm -rf $cache" \
        "chafa --size 80x12 --format symbols --colors full $image" \
        "${show[*]}" "${show[*]}" "${show[*]}" >/dev/null
    python3 - "$WORK/show.json" "$(basename "$image")" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
med = [statistics.median(r["times"]) * 1000 for r in results]
lo = [min(r["times"]) * 1000 for r in results]
chafa, warm, removed, empty = med
cells = ["%.1f (min %.1f)" % (m, l) for m, l in zip(med, lo)]
print("| %s | %s | %s | %s | %s | **%.2f×** | %.2f× | %.2f× |" % (
    sys.argv[2], *cells, warm / chafa, removed / warm, empty / warm))
PY
done
} | if [[ -n "$OUT" ]]; then tee "$OUT"; else cat; fi
