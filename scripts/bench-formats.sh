#!/usr/bin/env bash
# issue 32's parser benchmarks (PostFeedFormats), side by side in one run:
#
# 1. Parsing a 5 MB WordPress-style RSS 2.0 feed (generated, deterministic): FeedParser.parse
#    (libxml2 + every item's fields and dates) as a whole process, against
#    `xmllint --stream --noout` (the floor: target ≤ 2×) and Python's xml.etree on the
#    same file (ElementTree.parse plus the same fields of every item; target ≥ 5× faster).
#    Also in-process medians (no process start-up) for PostFeed and Python.
# 2. HTML to text for 1,000 WordPress-sized posts (one file, posts separated by a comment
#    line): HTMLText.render of each post as a whole process, against `html2text` and
#    `w3m -dump` on the same file, as ms per MB of HTML.
#
# Every figure is hyperfine's median of BENCH_FORMATS_RUNS runs (default 15) after 2 warm-ups;
# the file is in the page cache for everyone. `make bench` runs this; it also runs alone:
#
#   bash scripts/bench-formats.sh                   everything (about a minute after the build)
#   bash scripts/bench-formats.sh --out results.md  also write the tables to a file
#
# Needs: swift, libxml2-dev, hyperfine, xmllint (libxml2-utils), html2text, w3m, python3
# (`make bench-deps` installs the tools).
set -euo pipefail

cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
RUNS=${BENCH_FORMATS_RUNS:-15}
OUT=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --out) OUT=${2:?"--out needs a file name"}; shift 2 ;;
        *) echo "bench-formats: unknown argument $1 (want --out FILE)" >&2; exit 2 ;;
    esac
done
for tool in hyperfine xmllint html2text w3m python3; do
    command -v "$tool" >/dev/null || { echo "bench-formats: $tool is missing (make bench-deps)" >&2; exit 1; }
done

if [[ -n "${BENCH_FORMATS:-}" ]]; then
    BENCH=$BENCH_FORMATS
else
    echo "bench-formats: building postfeed-bench-formats (Benchmarks/, release, static Swift runtime)…" >&2
    "$SWIFT" build --package-path Benchmarks -c release --static-swift-stdlib --product postfeed-bench-formats >&2
    BENCH="$("$SWIFT" build --package-path Benchmarks -c release --show-bin-path)/postfeed-bench-formats"
fi

# The interpreter itself, not a version manager's shim script in front of it (pyenv's adds
# ~150 ms to every start).
PYTHON_BIN=$(python3 -c 'import sys; print(sys.executable)')

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"$BENCH" generate-rss 5 "$WORK/feed.xml"
"$BENCH" generate-html 1000 "$WORK/posts.html"

cat >"$WORK/etree.py" <<'PY'
import sys, time
import xml.etree.ElementTree as ET
NS = {"content": "http://purl.org/rss/1.0/modules/content/", "dc": "http://purl.org/dc/elements/1.1/",
      "media": "http://search.yahoo.com/mrss/"}
def parse(path):
    root = ET.parse(path).getroot()
    items = []
    for item in root.iter("item"):
        media = item.find("media:content", NS)
        items.append((item.findtext("guid"), item.findtext("title"), item.findtext("link"),
                      item.findtext("description"), item.findtext("content:encoded", namespaces=NS),
                      item.findtext("dc:creator", namespaces=NS), item.findtext("pubDate"),
                      media.get("url") if media is not None else None))
    return items
if len(sys.argv) > 2:
    times = []
    for _ in range(int(sys.argv[2])):
        start = time.perf_counter(); count = len(parse(sys.argv[1])); times.append((time.perf_counter() - start) * 1e3)
    times.sort(); print("%.2f %d" % (times[len(times) // 2], count))
else:
    print(len(parse(sys.argv[1])), "items")
PY

median() {  # hyperfine's median in ms for one command
    hyperfine --style none --warmup 2 --runs "$RUNS" --export-json "$WORK/h.json" "$1" >/dev/null 2>&1
    python3 -c "import json; print('%.1f' % (json.load(open('$WORK/h.json'))['results'][0]['median'] * 1e3))"
}
ratio() { python3 -c "print('%.2f' % ($1 / $2))"; }

FEED_MB=$(python3 -c "import os; print('%.2f' % (os.path.getsize('$WORK/feed.xml') / 1e6))")
HTML_MB=$(python3 -c "import os; print('%.2f' % (os.path.getsize('$WORK/posts.html') / 1e6))")
ITEMS=$("$BENCH" parse "$WORK/feed.xml" | cut -d' ' -f1)
PY_ITEMS=$("$PYTHON_BIN" "$WORK/etree.py" "$WORK/feed.xml" | cut -d' ' -f1)
[ "$ITEMS" = "$PY_ITEMS" ] || { echo "bench-formats: PostFeed read $ITEMS items, Python $PY_ITEMS" >&2; exit 1; }

echo "bench-formats: timing the feed parse ($FEED_MB MB, $ITEMS items)…" >&2
OURS=$(median "$BENCH parse $WORK/feed.xml")
XMLLINT=$(median "xmllint --stream --noout $WORK/feed.xml")
PYTHON=$(median "$PYTHON_BIN $WORK/etree.py $WORK/feed.xml")
NOOP_SWIFT=$(median "$BENCH parse /dev/null || true")
NOOP_PYTHON=$(median "$PYTHON_BIN -c pass")
read -r OURS_IN _ < <("$BENCH" time-parse "$WORK/feed.xml" 15)
read -r PYTHON_IN _ < <("$PYTHON_BIN" "$WORK/etree.py" "$WORK/feed.xml" 15)

echo "bench-formats: timing HTML to text ($HTML_MB MB, 1,000 posts)…" >&2
RENDER=$(median "$BENCH render $WORK/posts.html")
HTML2TEXT=$(median "html2text -utf8 $WORK/posts.html")
W3M=$(median "w3m -dump -T text/html -O UTF-8 $WORK/posts.html")
read -r RENDER_IN _ < <("$BENCH" time-render "$WORK/posts.html" 5)
per_mb() { python3 -c "print('%.1f' % ($1 / $HTML_MB))"; }

report() {
    echo "### Feed parsing: a $FEED_MB MB WordPress-style RSS 2.0 feed ($ITEMS items), whole processes (hyperfine median of $RUNS)"
    echo
    echo "| command | median | PostFeed / it |"
    echo "|---|---:|---:|"
    echo "| \`postfeed-bench-formats parse\` (FeedParser: libxml2 tree + every item's fields and dates) | $OURS ms | 1.00× |"
    echo "| \`xmllint --stream --noout\` | $XMLLINT ms | $(ratio "$OURS" "$XMLLINT")× |"
    echo "| \`python3\` xml.etree (parse + the same fields) | $PYTHON ms | $(ratio "$OURS" "$PYTHON")× |"
    echo "| process start-up alone: PostFeed binary on an empty file / \`python3 -c pass\` | $NOOP_SWIFT ms / $NOOP_PYTHON ms | |"
    echo
    echo "In process (median of 15, no start-up): FeedParser.parse $OURS_IN ms, Python's parse + fields $PYTHON_IN ms: Python / PostFeed $(ratio "$PYTHON_IN" "$OURS_IN")×."
    echo
    echo "Targets: ≤ 2× xmllint --stream: $(ratio "$OURS" "$XMLLINT")×; ≥ 5× faster than xml.etree: $(ratio "$PYTHON" "$OURS")× (whole process), $(ratio "$PYTHON_IN" "$OURS_IN")× (in process)."
    echo
    echo "### HTML to text: 1,000 WordPress-sized posts ($HTML_MB MB), whole processes (hyperfine median of $RUNS)"
    echo
    echo "| command | median | ms per MB | PostFeed / it |"
    echo "|---|---:|---:|---:|"
    echo "| \`postfeed-bench-formats render\` (HTMLText.render per post) | $RENDER ms | $(per_mb "$RENDER") | 1.00× |"
    echo "| \`html2text -utf8\` (one document) | $HTML2TEXT ms | $(per_mb "$HTML2TEXT") | $(ratio "$RENDER" "$HTML2TEXT")× |"
    echo "| \`w3m -dump\` (one document) | $W3M ms | $(per_mb "$W3M") | $(ratio "$RENDER" "$W3M")× |"
    echo
    echo "In process: rendering the 1,000 posts takes $RENDER_IN ms ($(per_mb "$RENDER_IN") ms per MB)."
}
report
if [[ -n "$OUT" ]]; then report >"$OUT"; fi
