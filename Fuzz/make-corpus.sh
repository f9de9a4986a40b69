#!/usr/bin/env bash
# Regenerates the seed corpora in Fuzz/Corpus/ from what the product really reads: the
# fixture server's responses under each preset (Fixtures/ and the peer data), state files
# and cache entries `postfeed` writes, the head of each fixture image. Run from anywhere,
# after `swift build --product postfeed` in the repository root; the hand-written seeds
# (odd JSON, Link headers, dates, backend files) are kept.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(cd .. && pwd)
POSTFEED=${POSTFEED:-$ROOT/.build/debug/postfeed}
CORPUS=$PWD/Corpus
WORK=$(mktemp -d)
SERVER=""
cleanup() {
    if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$CORPUS"/{json,link-header,page,post,backend-config,state-file,cache-entry,image-sniff,header-lines,http-dates}

start_server() { # preset
    "$POSTFEED" serve --port 0 --api "$1" >"$WORK/serve.log" 2>&1 &
    SERVER=$!
    for _ in $(seq 50); do
        ADDRESS=$(grep -o '127\.0\.0\.1:[0-9]*' "$WORK/serve.log" | tail -1 || true)
        [ -n "$ADDRESS" ] && return
        sleep 0.1
    done
    echo "make-corpus: postfeed serve --api $1 did not start" >&2
    exit 1
}
stop_server() { kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=""; }

# fuzz-page input: one byte choosing the page key (see Sources/fuzz-page), then the
# response as `curl -i` shows it: header lines, a blank line, the body.
page_seed() { # name key-byte path
    { printf "\\x$2"; curl -si "http://$ADDRESS$3"; } >"$CORPUS/page/$1"
}

for preset in postfeed postfeed-cursor json-server json-server-v1 dummyjson; do
    start_server "$preset"
    case $preset in
        postfeed)
            page_seed postfeed-p2 01 "/api/posts?page=2&limit=2"
            page_seed postfeed-last 00 "/api/posts?page=124&limit=2"
            page_seed postfeed-past 01 "/api/posts?page=999&limit=2" ;;
        postfeed-cursor)
            page_seed cursor-first 05 "/api/posts?limit=2"
            page_seed cursor-next 06 "/api/posts?cursor=bzoy&limit=2" ;;
        json-server)
            page_seed json-server-p2 01 "/posts?_page=2&_limit=2"
            page_seed json-server-link 08 "/posts?_page=3&_limit=2" ;;
        json-server-v1)
            page_seed json-server-v1-p2 01 "/posts?_page=2&_per_page=2"
            page_seed json-server-v1-last 01 "/posts?_page=50&_per_page=2" ;;
        dummyjson)
            page_seed dummyjson-skip 04 "/posts?limit=2&skip=40"
            page_seed dummyjson-end 03 "/posts?limit=2&skip=250" ;;
    esac
    # Header lines as curl hands them over, and the dates in them.
    curl -sI "http://$ADDRESS/" -o /dev/null -D "$CORPUS/header-lines/$preset" || true
    stop_server
done
for file in "$CORPUS"/page/*; do
    # Bodies alone (the part after the blank line) for the JSON and post decoders.
    python3 - "$file" "$CORPUS" <<'EOF'
import os, sys
data = open(sys.argv[1], "rb").read()
head, _, body = data[1:].partition(b"\r\n\r\n")
name = os.path.basename(sys.argv[1])
open(os.path.join(sys.argv[2], "json", name), "wb").write(body)
open(os.path.join(sys.argv[2], "post", name), "wb").write(body)
open(os.path.join(sys.argv[2], "header-lines", "page-" + name), "wb").write(head + b"\r\n\r\n")
EOF
done

# State files and cache entries as `postfeed` writes them, in both modes.
"$POSTFEED" list --cache-dir "$WORK/cache" --page-size 3 --pages 2 >/dev/null
"$POSTFEED" page 2 --cache-dir "$WORK/cache" --page-size 3 >/dev/null
cp "$WORK/cache/State/infinite-scroll-state.json" "$CORPUS/state-file/infinite"
cp "$WORK/cache/State/pagination-state.json" "$CORPUS/state-file/paged"
python3 - "$WORK/cache" "$CORPUS/cache-entry" <<'EOF'
import os, struct, sys
root, out = sys.argv[1], sys.argv[2]
entries = []
for folder, _, files in os.walk(root):
    for name in files:
        path = os.path.join(folder, name)
        data = open(path, "rb").read()
        if len(data) >= 32 and data[-32:-28] == b"PFCE":
            entries.append((len(data), os.path.relpath(folder, root).split(os.sep)[0], data))
entries.sort()
kept = {}
for size, kind, data in entries:
    if kept.get(kind, 0) >= 2 or size > 64 * 1024:
        continue
    kept[kind] = kept.get(kind, 0) + 1
    name = "%s-%d" % (kind, kept[kind])
    open(os.path.join(out, name), "wb").write(data)
    # The second reading of fuzz-cache-entry: a split point, body, metadata JSON.
    body_length, metadata_length = struct.unpack("<QQ", data[-24:-8])
    split = min(body_length, 0xFFFF)
    open(os.path.join(out, name + "-split"), "wb").write(
        struct.pack(">H", split) + data[: body_length + metadata_length])
EOF

# The head of a few images of each format (sniffing reads the header only).
for image in "$ROOT"/Fixtures/images/img-00{1,3}.* "$ROOT"/Fixtures/images/*.{gif,webp}; do
    [ -f "$image" ] || continue
    head -c 4096 "$image" >"$CORPUS/image-sniff/$(basename "$image")"
done
echo "make-corpus: $(find "$CORPUS" -type f | wc -l) files, $(du -sh "$CORPUS" | cut -f1)"
