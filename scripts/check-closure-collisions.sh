#!/bin/bash
# Finds closures that Swift 6.3.1 silently merged: in a test whose body is a closure, a closure
# literal inside #expect/#require gets the discriminator of a later closure literal outside
# the macro; SILGen emits one body and both call sites use it (see README, Tests). Each
# closure literal has one call site in SILGen output, so a closure referenced twice is one
# of those. Needs a debug build first (`swift build --build-tests`): it reads the built
# modules. Usage: scripts/check-closure-collisions.sh [TestTarget…] (default: every target
# under Tests/ whose name ends in Tests). Exits 1 when it finds any.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d .build/debug/Modules ] || { echo "check-closure-collisions: no .build/debug/Modules; run swift build --build-tests first" >&2; exit 2; }
build=$(readlink -f .build/debug)
modules=$build/Modules
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for d in Tests/*Tests; do targets+=("$(basename "$d")"); done
fi
flags=(-emit-silgen -wmo -parse-as-library -swift-version 6
       -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility -I "$modules")
while read -r map; do flags+=(-Xcc "-fmodule-map-file=$(readlink -f "$map")"); done < <(
    { ls Sources/C*/module.modulemap Sources/C*/include/module.modulemap 2>/dev/null || true
      find "$build" -maxdepth 2 -name module.modulemap
      find .build/checkouts -path '*/Sources/*' -not -path '*/Benchmarks/*' -name module.modulemap; } | sort -u)
for include in $(pkg-config --cflags-only-I chafa glib-2.0 libpng libwebp libturbojpeg hiredis libcurl libxml-2.0 2>/dev/null); do
    flags+=(-Xcc "$include")
done
sil=$(mktemp)
trap 'rm -f "$sil"' EXIT
found=0
for target in "${targets[@]}"; do
    # With the files a build-tool plugin generated for the target (DocSnippetTests').
    mapfile -t files < <(find "Tests/$target" -name '*.swift'
        find .build/plugins/outputs -path "*/$target/destination/*" -name '*.swift' 2>/dev/null || true)
    if ! swiftc "${flags[@]}" -module-name "$target" "${files[@]}" -o "$sil" 2>"$sil.err"; then
        echo "check-closure-collisions: $target did not compile to SIL:" >&2
        grep error "$sil.err" | head -5 >&2
        rm -f "$sil.err"
        exit 2
    fi
    rm -f "$sil.err"
    duplicates=$(grep -o 'function_ref @[^ ]*fU[0-9]*_ ' "$sil" | sort | uniq -c | awk '$1 > 1 { print $2 }' | sed 's/^@//' \
        | swift demangle --simplified || true)
    if [ -n "$duplicates" ]; then
        found=1
        echo "$target: closures with two call sites (the second runs the first's body):"
        echo "$duplicates" | sed 's/^/  /'
    else
        echo "$target: none"
    fi
done
exit $found
