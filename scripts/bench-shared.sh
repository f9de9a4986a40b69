#!/usr/bin/env bash
# The shared cache tier's proof (issue 18): 8 `postfeed list` processes, each on its own
# cache root, read the same 1,000 images at once, first without the shared tier, then
# through one Redis (`--shared-cache`); then a second wave of 8 fresh processes (fresh cache
# roots) on the Redis the first wave filled. Origin fetches are counted at the fixture
# server (`postfeed serve --test-routes`, `GET /test/requests`, images only: the pages are
# not part of the count). Targets: wave 1 with the tier ≤ 1,000 × 1.01 image fetches
# (8,000 without it), wave 2: 0.
#
# It starts its own redis-server and `postfeed serve` on free loopback ports, over a copy
# of Fixtures/ with 1,000 posts whose images are 1,000 distinct URLs (the 72 fixture
# images copied under new names), and removes everything at the end.
#
#   bash scripts/bench-shared.sh                  build postfeed (release), run, print the table
#   bash scripts/bench-shared.sh --out FILE       also write the table to FILE
#   BENCH_SHARED_CONFIG=debug bash scripts/bench-shared.sh     the debug build (no build step
#                                                              when .build/debug/postfeed exists)
#   BENCH_SHARED_LATENCY_MS=20 …                  the origin answers each request 20 ms late
#   BENCH_SHARED_PROCESSES=8 BENCH_SHARED_IMAGES=1000 …
#   BENCH_SHARED_SKIP_HIT=1 …                     without the Redis-hit-vs-disk-hit part
#   BENCH_SHARED_REDIS_NICE=-5 …                  redis-server at a higher priority (root)
#
# Last, `postfeed-bench shared-hit` (Benchmarks/) times a Redis hit against a disk hit
# (p50, side by side; target ≤ 2×) on the same Redis.
#
# Needs: swift, redis-server (`make test-deps` installs it), curl, python3.
set -euo pipefail

cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
CONFIG=${BENCH_SHARED_CONFIG:-release}
PROCESSES=${BENCH_SHARED_PROCESSES:-8}
IMAGES=${BENCH_SHARED_IMAGES:-1000}
LATENCY_MS=${BENCH_SHARED_LATENCY_MS:-0}
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
# redis-server's niceness, e.g. -5: on a small machine shared with builds, Redis otherwise
# waits for a CPU longer than the tier's 50 ms timeout and the tier steps aside (a Redis in
# production has a machine of its own). Empty: as every other process.
REDIS_NICE=${BENCH_SHARED_REDIS_NICE:-}
PAGE_SIZE=100
OUT=""
if [[ "${1:-}" == "--out" ]]; then
    OUT=${2:?"--out needs a file name"}
fi
for tool in redis-server redis-cli curl python3; do
    command -v "$tool" >/dev/null || { echo "bench-shared: $tool is missing (make test-deps installs redis-server)" >&2; exit 1; }
done

if [[ "$CONFIG" == "release" ]]; then
    echo "bench-shared: building postfeed (release, static Swift runtime)…" >&2
    "$SWIFT" build -c release --static-swift-stdlib --product postfeed >&2
    POSTFEED="$("$SWIFT" build -c release --show-bin-path)/postfeed"
else
    POSTFEED=.build/debug/postfeed
    [[ -x "$POSTFEED" ]] || "$SWIFT" build --product postfeed >&2
fi
POSTFEED=$(cd "$(dirname "$POSTFEED")" && pwd)/postfeed
# The Redis hit against the disk hit: `postfeed-bench shared-hit` (the Benchmarks/ package).
if [[ -z "${BENCH_SHARED_SKIP_HIT:-}" ]]; then
    echo "bench-shared: building postfeed-bench (Benchmarks/, $CONFIG)…" >&2
    if [[ "$CONFIG" == "release" ]]; then
        "$SWIFT" build --package-path Benchmarks -c release --static-swift-stdlib --product postfeed-bench >&2
        BENCH="$("$SWIFT" build --package-path Benchmarks -c release --show-bin-path)/postfeed-bench"
    else
        "$SWIFT" build --package-path Benchmarks --product postfeed-bench >&2
        BENCH="$("$SWIFT" build --package-path Benchmarks --show-bin-path)/postfeed-bench"
    fi
fi
COMMIT=${BENCH_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo '?')}

WORK=$(mktemp -d)
SERVER_PID=""
REDIS_PID=""
cleanup() {
    [[ -n "$SERVER_PID" ]] && kill "$SERVER_PID" 2>/dev/null
    [[ -n "$REDIS_PID" ]] && kill "$REDIS_PID" 2>/dev/null
    wait 2>/dev/null
    if [[ -n "${BENCH_SHARED_KEEP:-}" ]]; then echo "bench-shared: kept $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

# The fixtures: Fixtures/posts.json's posts repeated to $IMAGES posts, post N showing
# /images/shared-N.<ext>, a copy of one of the fixture images.
python3 - "$WORK/fixtures" "$IMAGES" <<'PY'
import json, os, shutil, sys
target, count = sys.argv[1], int(sys.argv[2])
os.makedirs(os.path.join(target, "images"))
posts = json.load(open("Fixtures/posts.json"))
sources = sorted(os.listdir("Fixtures/images"))
out = []
for index in range(count):
    post = dict(posts[index % len(posts)])
    source = sources[index % len(sources)]
    name = "shared-%04d.%s" % (index + 1, source.rsplit(".", 1)[1])
    shutil.copyfile(os.path.join("Fixtures/images", source), os.path.join(target, "images", name))
    post["id"] = index + 1
    post["imageUrl"] = "/images/" + name
    out.append(post)
json.dump(out, open(os.path.join(target, "posts.json"), "w"))
PY

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

REDIS_PORT=$(free_port)
${REDIS_NICE:+nice -n "$REDIS_NICE"} redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --dir "$WORK" \
    --logfile "$WORK/redis.log" --daemonize no &
REDIS_PID=$!
for _ in $(seq 100); do
    [[ "$(redis-cli -p "$REDIS_PORT" PING 2>/dev/null)" == PONG ]] && break
    sleep 0.05
done
[[ "$(redis-cli -p "$REDIS_PORT" PING 2>/dev/null)" == PONG ]] || { echo "bench-shared: redis-server did not start on port $REDIS_PORT" >&2; exit 1; }
REDIS_URL=redis://127.0.0.1:$REDIS_PORT

PORT=$(free_port)
BASE_URL=http://127.0.0.1:$PORT
"$POSTFEED" serve --port "$PORT" --fixtures "$WORK/fixtures" --test-routes --latency-ms "$LATENCY_MS" >"$WORK/serve.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 100); do
    curl -fs "$BASE_URL/api/posts?page=1&limit=1" >/dev/null && break
    sleep 0.1
done
curl -fs "$BASE_URL/api/posts?page=1&limit=1" >/dev/null || { echo "bench-shared: postfeed serve did not start on $BASE_URL" >&2; exit 1; }

# Connections Redis accepted so far: one per process with the tier, more when a process
# dropped its connection after a timeout and connected again.
redis_connections() { redis-cli -p "$REDIS_PORT" INFO stats | tr -d '\r' | sed -n 's/^total_connections_received://p'; }
image_requests() { curl -fs "$BASE_URL/test/requests" | python3 -c 'import json, sys; print(json.load(sys.stdin)["images"])'; }

PAGES=$(( (IMAGES + PAGE_SIZE - 1) / PAGE_SIZE ))
# One wave: $PROCESSES `postfeed list` processes started at once, each on a fresh cache
# root, reading every page with its images (a page waits for all of them); returns when
# they have exited and their roots are removed. Prints
# "wall_seconds origin_image_requests failed_processes images_shown".
wave() { # name shared(yes/no)
    local name=$1 shared=$2 before after start end failed=0 shown
    local extra=()
    [[ "$shared" == yes ]] && extra=(--shared-cache "$REDIS_URL")
    before=$(image_requests)
    connections_before=$(redis_connections)
    start=$(date +%s.%N)
    local pids=()
    for index in $(seq "$PROCESSES"); do
        "$POSTFEED" list --base-url "$BASE_URL" --cache-dir "$WORK/roots-$name/$index" --pages "$PAGES" \
            --page-size "$PAGE_SIZE" --image-wait 120 --json "${extra[@]}" \
            >"$WORK/out-$name-$index.json" 2>"$WORK/err-$name-$index.txt" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || failed=$((failed + 1)); done
    end=$(date +%s.%N)
    after=$(image_requests)
    shown=$(python3 - "$WORK" "$name" "$PROCESSES" <<'PY'
import json, sys
work, name, processes = sys.argv[1], sys.argv[2], int(sys.argv[3])
total = 0
for index in range(1, processes + 1):
    try:
        posts = json.load(open("%s/out-%s-%d.json" % (work, name, index)))["posts"]
    except Exception:
        continue
    total += sum(1 for post in posts if post.get("image", {}).get("width"))
print(total)
PY
)
    echo "$(python3 -c "print('%.2f' % ($end - $start))") $((after - before)) $failed $shown $(( $(redis_connections) - connections_before - 1 ))"
    for index in $(seq "$PROCESSES"); do
        if [[ -s "$WORK/err-$name-$index.txt" ]]; then
            echo "bench-shared: $name process $index said on stderr:" >&2
            head -n 5 "$WORK/err-$name-$index.txt" >&2
        fi
    done
    [[ -n "${BENCH_SHARED_KEEP:-}" ]] || rm -rf "$WORK/roots-$name"
}

echo "bench-shared: $PROCESSES processes × $IMAGES images, origin latency ${LATENCY_MS} ms, $CONFIG build…" >&2
wave plain no >"$WORK/result-plain"
read -r plain_wall plain_requests plain_failed plain_shown plain_connections <"$WORK/result-plain"
wave plain2 no >"$WORK/result-plain2"
read -r plain2_wall plain2_requests plain2_failed plain2_shown plain2_connections <"$WORK/result-plain2"
redis-cli -p "$REDIS_PORT" FLUSHALL >/dev/null
redis-cli -p "$REDIS_PORT" CONFIG RESETSTAT >/dev/null
wave shared yes >"$WORK/result-shared"
commands=$(redis-cli -p "$REDIS_PORT" INFO commandstats | tr -d '\r' | sed -n 's/^cmdstat_\([a-z]*\):calls=\([0-9]*\),usec=\([0-9]*\).*/\1 \2 (\3 µs)/p' | tr '\n' ',' | sed 's/,$//; s/,/, /g')
read -r shared_wall shared_requests shared_failed shared_shown shared_connections <"$WORK/result-shared"
wave shared2 yes >"$WORK/result-shared2"
read -r shared2_wall shared2_requests shared2_failed shared2_shown shared2_connections <"$WORK/result-shared2"
keys=$(redis-cli -p "$REDIS_PORT" DBSIZE)
leases=$(redis-cli -p "$REDIS_PORT" --scan --pattern 'postfeed:lease:*' | wc -l)

limit=$(python3 -c "print(int($IMAGES * 1.01))")
verdict() { [[ "$1" -le "$2" ]] && echo met || echo "**missed**"; }
{
    echo "### Shared cache tier: $PROCESSES processes × $IMAGES images ($(date -u +%Y-%m-%d), commit $COMMIT, $CONFIG build, origin latency $LATENCY_MS ms)"
    echo
    echo "$(nproc) cores, load before the run: $LOAD_BEFORE, redis-server niceness ${REDIS_NICE:-0}. Each process: \`postfeed list --pages $PAGES --page-size $PAGE_SIZE --image-wait 120 --json\` on a fresh cache root; origin image requests counted by the fixture server."
    echo
    echo "| run | wall (s) | origin image requests | target | images shown | failed processes | Redis connections |"
    echo "|---|---:|---:|---|---:|---:|---:|"
    echo "| wave 1, no shared tier | $plain_wall | $plain_requests | (expected $((PROCESSES * IMAGES))) | $plain_shown | $plain_failed | – |"
    echo "| wave 2, no shared tier (fresh roots) | $plain2_wall | $plain2_requests | (expected $((PROCESSES * IMAGES))) | $plain2_shown | $plain2_failed | – |"
    echo "| wave 1, \`--shared-cache\` (empty Redis) | $shared_wall | $shared_requests | ≤ $limit: $(verdict "$shared_requests" "$limit") | $shared_shown | $shared_failed | $shared_connections |"
    echo "| wave 2, \`--shared-cache\` (fresh roots, warm Redis) | $shared2_wall | $shared2_requests | 0: $(verdict "$shared2_requests" 0) | $shared2_shown | $shared2_failed | $shared2_connections |"
    echo
    echo "Redis commands in the first shared wave: $commands."
    echo
    echo "Redis after the run: $keys keys ($leases leases left). Images shown: images the processes printed with their size (all $((PROCESSES * IMAGES)) per wave when none failed). Redis connections: $PROCESSES when no process had to reconnect (a command past the 50 ms timeout drops the connection and skips the tier for 100 ms or more)."
} | if [[ -n "$OUT" ]]; then tee "$OUT"; else cat; fi

if [[ -n "${BENCH_SHARED_SKIP_HIT:-}" ]]; then exit 0; fi
redis-cli -p "$REDIS_PORT" FLUSHALL >/dev/null
echo "bench-shared: Redis hit vs disk hit…" >&2
{
    echo
    "$BENCH" shared-hit --redis "$REDIS_URL" --fixtures Fixtures
} | if [[ -n "$OUT" ]]; then tee -a "$OUT"; else cat; fi
