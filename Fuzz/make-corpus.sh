#!/usr/bin/env bash
# Regenerates the seed corpora in Fuzz/Corpus/ from what the product really reads: the
# fixture server's responses under each preset (Fixtures/ and the peer data), state files
# and cache entries `postfeed` writes, the head of each fixture image. Run from anywhere,
# after `swift build --product postfeed` in the repository root; the hand-written seeds
# (odd JSON, Link headers, dates, backend files) are kept.
#
#   Fuzz/make-corpus.sh          every corpus (needs the built postfeed and ImageMagick)
#   Fuzz/make-corpus.sh images   only the image decoders' seeds (image-jpeg, -png, -webp,
#                                -gif): ImageMagick's `convert` (apt-get install imagemagick)
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

# Seeds for the image decoders: small images (each well under 20 KB) of every variant the
# decoders branch on, made from a fixture photo by ImageMagick, plus a truncated copy and
# a copy with bytes flipped in the middle of each format's first seed.
image_seeds() {
    command -v convert >/dev/null && convert -version | grep -q ImageMagick || {
        echo "make-corpus: ImageMagick's convert is needed for the image seeds (apt-get install imagemagick)" >&2
        exit 1
    }
    local photo="$ROOT/Fixtures/images/img-001.jpg" out
    mkdir -p "$CORPUS"/image-{jpeg,png,webp,gif}
    rm -f "$CORPUS"/image-{jpeg,png,webp,gif}/*
    small() { convert "$photo" -strip -resize "$1" "${@:2}"; }
    out=$CORPUS/image-jpeg
    small 64x48 -quality 80 "$out/baseline-420.jpg"
    small 40x30 -quality 90 -sampling-factor 1x1 "$out/baseline-444.jpg"
    small 48x36 -quality 75 -interlace Plane "$out/progressive.jpg"
    small 33x17! -colorspace Gray -quality 85 "$out/grey-odd-size.jpg"
    small 24x18 -colorspace CMYK -quality 85 "$out/cmyk.jpg"
    convert -size 16x16 "xc:cmyk(0,255,127,127)" -colorspace CMYK -quality 90 "$out/cmyk-solid.jpg"
    small 32x24 -quality 85 -define jpeg:restart-interval=1 "$out/restart-markers.jpg"
    small 16x16 -quality 85 -define jpeg:optimize-coding=false -sampling-factor 2x1 "$out/422-unoptimized.jpg"
    out=$CORPUS/image-png
    small 48x36 "PNG24:$out/rgb.png"
    small 32x24 -alpha set -channel A -evaluate set 60% +channel "PNG32:$out/rgba.png"
    small 40x30 -colors 16 "PNG8:$out/palette.png"
    small 24x18 -colors 4 -transparent "$(convert "$photo" -resize 1x1! -format '%[pixel:p{0,0}]' info:)" "PNG8:$out/palette-trns.png"
    small 33x17! -colorspace Gray -depth 1 "$out/grey-1bit.png"
    small 20x20 -colorspace Gray -alpha set "PNG:$out/grey-alpha.png"
    small 16x12 -depth 16 "PNG48:$out/rgb-16bit.png"
    small 40x30 -interlace PNG "PNG24:$out/adam7.png"
    out=$CORPUS/image-webp
    small 64x48 -quality 75 "$out/lossy.webp"
    small 32x24 -define webp:lossless=true "$out/lossless.webp"
    small 32x24 -alpha set -channel A -evaluate set 50% +channel -quality 80 "$out/lossy-alpha.webp"
    small 20x20 -alpha set -channel A -evaluate set 50% +channel -define webp:lossless=true "$out/lossless-alpha.webp"
    convert -delay 10 \( "$photo" -strip -resize 16x12 \) \( "$photo" -strip -resize 16x12 -negate \) -loop 0 "$out/animated.webp"
    out=$CORPUS/image-gif
    small 48x36 -colors 64 "$out/gif89a.gif"
    small 40x30 -colors 16 -interlace GIF "$out/interlaced.gif"
    small 32x24 -colors 8 "GIF87:$out/gif87a.gif"
    small 24x18 -colors 4 -transparent "$(convert "$photo" -resize 1x1! -format '%[pixel:p{0,0}]' info:)" "$out/transparent.gif"
    convert -delay 10 \( "$photo" -strip -resize 16x12 -colors 8 \) \( "$photo" -strip -resize 8x6 -negate -colors 4 -repage 16x12+4+3 \) -loop 0 "$out/animated-offset-frame.gif"
    # Bombs: a few bytes whose headers declare 50,000 × 50,000 pixels.
    python3 - "$CORPUS" <<'EOF'
import os, struct, sys, zlib
root = sys.argv[1]
def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 50000, 50000, 8, 2, 0, 0, 0)) \
    + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")
open(os.path.join(root, "image-png", "bomb-50000.png"), "wb").write(png)
gif = b"GIF89a" + struct.pack("<HHBBB", 50000, 50000, 0x80, 0, 0) + b"\0\0\0\xff\xff\xff" \
    + b",\0\0\0\0" + struct.pack("<HH", 1, 1) + b"\0\x02\x02\x44\x01\0;"
open(os.path.join(root, "image-gif", "bomb-screen-50000.gif"), "wb").write(gif)
# An animated WebP whose first frame (lossy.webp's VP8 chunk) sits at 16,8 on a 100×70
# canvas, the second covering its top left: ImageMagick writes only whole-canvas frames.
def riff(kind, body):
    return kind + struct.pack("<I", len(body)) + body + (b"\0" if len(body) % 2 else b"")
def le24(value):
    return struct.pack("<I", value)[:3]
vp8 = open(os.path.join(root, "image-webp", "lossy.webp"), "rb").read()[12:]
def frame(left, top):
    return riff(b"ANMF", le24(left // 2) + le24(top // 2) + le24(63) + le24(47) + le24(100) + b"\x02" + vp8)
body = b"WEBP" + riff(b"VP8X", b"\x02\0\0\0" + le24(99) + le24(69)) + riff(b"ANIM", b"\0" * 6) \
    + frame(16, 8) + frame(0, 0)
open(os.path.join(root, "image-webp", "animated-offset-frame.webp"), "wb").write(b"RIFF" + struct.pack("<I", len(body)) + body)
EOF
    for format in jpeg png webp gif; do
        out=$CORPUS/image-$format
        case $format in
            jpeg) first=$out/baseline-420.jpg ;;
            png) first=$out/rgb.png ;;
            webp) first=$out/lossy.webp ;;
            gif) first=$out/gif89a.gif ;;
        esac
        size=$(wc -c <"$first")
        head -c $((size * 2 / 3)) "$first" >"$out/truncated-$(basename "$first")"
        python3 - "$first" "$out/flipped-$(basename "$first")" <<'EOF'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
for offset in range(len(data) // 2, len(data) // 2 + 16, 3):
    data[offset] ^= 0x5A
open(sys.argv[2], "wb").write(bytes(data))
EOF
    done
}
if [ "${1:-}" = images ]; then
    image_seeds
    echo "make-corpus: $(find "$CORPUS"/image-{jpeg,png,webp,gif} -type f | wc -l) image seeds, $(du -shc "$CORPUS"/image-{jpeg,png,webp,gif} | tail -1 | cut -f1)"
    exit 0
fi

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
image_seeds
echo "make-corpus: $(find "$CORPUS" -type f | wc -l) files, $(du -sh "$CORPUS" | cut -f1)"
