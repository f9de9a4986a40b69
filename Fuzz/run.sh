#!/usr/bin/env bash
# Builds the libFuzzer targets with -sanitize=fuzzer,address and runs each for
# FUZZ_SECONDS (default 30), starting from its committed seed corpus in Corpus/<name>/.
# Prints the executions of each target; exits non-zero when any target crashed, with the
# crashing input in Fuzz/Artifacts/ (`.build/debug/fuzz-<name> Artifacts/<file>` replays it).
#
#   Fuzz/run.sh                          every target, 30 s each
#   FUZZ_SECONDS=5 Fuzz/run.sh json page only these, 5 s each
#
# Inputs found interesting during a run go to .build/corpus/<name>/, not to Corpus/: copy
# the few worth keeping by hand (and every crash becomes a regression test).
set -uo pipefail
cd "$(dirname "$0")"

SWIFT=${SWIFT:-swift}
FUZZ_SECONDS=${FUZZ_SECONDS:-30}
ALL_TARGETS="json link-header page post backend-config state-file cache-entry image-sniff header-lines http-dates image-jpeg image-png image-webp image-gif feed html-text"
TARGETS=${*:-$ALL_TARGETS}

# SwiftPM's --sanitize flags reach C targets and the link (libFuzzer's main instead of the
# executable's), but swiftc gets them as two flags, -sanitize=fuzzer -sanitize=address,
# of which it keeps only the last: no coverage instrumentation, so libFuzzer mutates
# blindly. The -Xswiftc flag comes after them and is the one that counts.
build_start=$(date +%s)
build_log=$(mktemp)
for attempt in 1 2 3; do
    "$SWIFT" build --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address 2>&1 \
        | grep -v "Cannot export local symbol" >"$build_log"
    build_status=${PIPESTATUS[0]}
    # A source edited while it compiled (someone at work in Sources/): build again.
    grep -q "was modified during the build" "$build_log" || break
done
if [ "$build_status" != 0 ]; then
    cat "$build_log" >&2
    rm -f "$build_log"
    echo "fuzz: build failed" >&2
    exit "$build_status"
fi
rm -f "$build_log"
BIN=$("$SWIFT" build --show-bin-path)
echo "fuzz: built in $(($(date +%s) - build_start)) s; running each target for $FUZZ_SECONDS s"

mkdir -p Artifacts
for name in $TARGETS; do
    if [ ! -d "Corpus/$name" ]; then
        echo "fuzz: unknown target $name (known: $ALL_TARGETS)" >&2
        exit 2
    fi
done

# One target for FUZZ_SECONDS; its result line goes to .build/fuzz-<name>.result, a
# crash report beside it, so that two can run at once without mixing their output.
fuzz_one() {
    local name=$1 work=.build/corpus/$1 log=.build/fuzz-$1.log started=.build/fuzz-$1.started
    mkdir -p "$work"
    touch "$started"
    # -timeout: an input taking 10 s is a hang; leaks are not checked (Swift's runtime
    # caches metadata for the life of the process).
    # The Swift runtime's backtracer would catch a trap before libFuzzer does (and trips
    # ASan reading the stack): leave the report, the stack and the artifact to libFuzzer.
    SWIFT_BACKTRACE=enable=no "$BIN/fuzz-$name" "$work" "Corpus/$name" \
        -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=4096 -detect_leaks=0 \
        -artifact_prefix="Artifacts/$name-" -print_final_stats=1 >"$log" 2>&1
    local status=$?
    local runs coverage
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    printf '%-16s %12s executions  %6s edges  %s\n' "$name" "${runs:-?}" "${coverage:-?}" \
        "$([ $status = 0 ] && echo ok || echo "CRASH (exit $status, see Fuzz/$log)")" >".build/fuzz-$name.result"
    : >".build/fuzz-$name.crash"
    if [ $status != 0 ]; then
        {
            grep -E "^(==[0-9]+==ERROR|SUMMARY|Fatal error|.*artifact_prefix|Test unit written)" "$log" | head -5
            grep -E "^ *#[0-9]+ " "$log" | head -12
            # The input itself, so that a CI log alone reproduces the crash.
            find Artifacts -maxdepth 1 -name "$name-*" -newer "$started" | while read -r artifact; do
                echo "fuzz: $artifact ($(wc -c <"$artifact") bytes), base64; replay with"
                echo "      base64 -d >input <<'EOF' && Fuzz/.build/debug/fuzz-$name input"
                base64 "$artifact"
                echo "EOF"
            done
        } >".build/fuzz-$name.crash"
    fi
    return $status
}

# Two targets at a time (FUZZ_JOBS): each is one process on one core, and the machine
# has two; every target still gets its whole FUZZ_SECONDS.
FUZZ_JOBS=${FUZZ_JOBS:-2}
failed=""
summary=""
set -- $TARGETS
while [ $# -gt 0 ]; do
    batch=""
    for _ in $(seq "$FUZZ_JOBS"); do
        [ $# -gt 0 ] || break
        batch="$batch $1"
        shift
    done
    pids=""
    for name in $batch; do
        fuzz_one "$name" &
        pids="$pids $!"
    done
    index=0
    for name in $batch; do
        index=$((index + 1))
        pid=$(echo $pids | cut -d' ' -f$index)
        wait "$pid" || failed="$failed $name"
        line=$(cat ".build/fuzz-$name.result")
        echo "$line"
        summary="$summary$line"$'\n'
        cat ".build/fuzz-$name.crash"
    done
done
echo
echo "fuzz: ${FUZZ_SECONDS} s per target"
printf '%s' "$summary"
if [ -n "$failed" ]; then
    echo "fuzz: crashed:$failed (inputs in Fuzz/Artifacts/)" >&2
    exit 1
fi
