#!/usr/bin/env bash
# Builds animc and animc-bench in release mode (see ANIMC_LINK below),
# runs every scale workload, the start-up comparison against a hello world
# and the callgrind instruction counts, and writes bench/results.txt.
#
#   bash bench/run.sh                    # everything (a few minutes)
#   bash bench/run.sh --only chain       # extra arguments go to animc-bench
#
# Exits with animc-bench's status (pipefail): non-zero when a target is missed.
set -euo pipefail
cd "$(dirname "$0")/.."

# The binary measured is the one README installs: the Swift standard library
# linked in (`--static-swift-stdlib`, a build option), in its own scratch path.
# ANIMC_LINK=dynamic measures the build with the standard library as shared
# libraries (`scripts/release.sh --shared`) in .build-bench. Either way the hello world of
# the start-up comparison is linked the same way as animc.
# Both are built with the flags of scripts/release.sh, the hello world alike.
source scripts/release.sh --flags-only
case "${ANIMC_LINK:-static}" in
    static)  scratch=.build-static; link=(--static-swift-stdlib); hello_link=(-static-stdlib) ;;
    dynamic) scratch=.build-bench;  link=();                      hello_link=() ;;
    *) echo "ANIMC_LINK must be static or dynamic" >&2; exit 2 ;;
esac
# SwiftPM relinks when sources or flags change, not when the list of functions
# the linker orders (scripts/startup.order) does: a binary older than the list
# is removed, so that it is linked again.
relink_if_stale() {   # BIN_DIR
    [ -f scripts/startup.order ] || return 0
    for product in animc animc-bench; do
        if [ scripts/startup.order -nt "$1/$product" ]; then rm -f "$1/$product"; fi
    done
}
bin=$(swift build "${release_flags[@]}" "${link[@]}" --scratch-path "$scratch" --show-bin-path)
relink_if_stale "$bin"
swift build "${release_flags[@]}" "${link[@]}" --scratch-path "$scratch" --product animc >&2
swift build "${release_flags[@]}" "${link[@]}" --scratch-path "$scratch" --product animc-bench >&2

mkdir -p "$scratch/hello" "$scratch/callgrind"
swiftc "${hello_flags[@]}" "${hello_link[@]}" bench/hello/main.swift -o "$scratch/hello/hello"

# Start-up is also measured for the other way of linking, again against a
# hello world linked the same way (an animc is only ever compared with a hello
# world built alike): both ratios are targets.
other_startup() {
    local other other_link=() other_hello=() label
    if [ "${ANIMC_LINK:-static}" = static ]; then
        other=.build-bench; label="as shared libraries"
    else
        other=.build-static; other_link=(--static-swift-stdlib); other_hello=(-static-stdlib); label="linked in"
    fi
    local obin work animc hello
    obin=$(swift build "${release_flags[@]}" "${other_link[@]}" --scratch-path "$other" --show-bin-path)
    relink_if_stale "$obin"
    swift build "${release_flags[@]}" "${other_link[@]}" --scratch-path "$other" --product animc >&2
    mkdir -p "$other/hello"
    swiftc "${hello_flags[@]}" "${other_hello[@]}" bench/hello/main.swift -o "$other/hello/hello"
    work=$(mktemp -d)
    "$bin/animc-bench" --write-script startup 1 >"$work/three.anim"
    animc=$(valgrind --tool=callgrind --callgrind-out-file="$work/a.cg" "$obin/animc" eval "$work/three.anim" --format csv 2>&1 >/dev/null \
        | grep -o 'Collected : [0-9]*' | awk '{ print $3 }')
    hello=$(valgrind --tool=callgrind --callgrind-out-file="$work/h.cg" "$other/hello/hello" 2>&1 >/dev/null \
        | grep -o 'Collected : [0-9]*' | awk '{ print $3 }')
    rm -rf "$work"
    local ratio
    ratio=$(awk -v a="$animc" -v h="$hello" 'BEGIN { printf "%.2f", a / h }')
    echo "start-up with the standard library $label (animc and hello world alike): animc $animc instructions, hello world $hello"
    if awk -v r="$ratio" 'BEGIN { exit !(r <= 1.5) }'; then
        echo "  ok      start-up, standard library $label: animc/hello instructions ${ratio}× ≤ 1.5×"
    else
        echo "  MISSED  start-up, standard library $label: animc/hello instructions ${ratio}× ≤ 1.5×"
        return 1
    fi
}

extra=()
command -v valgrind >/dev/null && extra+=(--instructions)

# Which sources were measured: a checkout (commit, and any uncommitted
# changes), or a copy of one (e.g. `git archive HEAD` plus the bench files).
describe_tree() {
    local top
    top=$(git rev-parse --show-toplevel 2>/dev/null || true)
    if [ "$top" = "$(pwd -P)" ]; then
        local changed
        changed=$(git status --porcelain -- Sources Package.swift | awk '{ print $2 }' | tr '\n' ' ')
        echo "commit $(git rev-parse --short HEAD)${changed:+ + uncommitted changes in: $changed}"
    elif [ -n "$top" ]; then
        echo "a copy of the sources in $(pwd -P), inside the checkout of commit $(git rev-parse --short HEAD)"
    else
        echo "sources in $(pwd -P) (not a git checkout)"
    fi
}

# The static build (as installed) writes bench/results.txt, the shared-library build bench/results-dynamic.txt.
results=bench/results.txt
[ "${ANIMC_LINK:-static}" = dynamic ] && results=bench/results-dynamic.txt
{
    status=0
    echo "# $results: written by bench/run.sh"
    echo "# $(date -u +%Y-%m-%dT%H:%MZ); $(describe_tree)"
    echo "# $(swift --version 2>&1 | head -n 1)"
    echo "# $(nproc) cores; load average before the run: $(cut -d ' ' -f 1-3 /proc/loadavg)"
    echo "# animc built with the standard library linked ${ANIMC_LINK:-static}ally; it links: $(ldd "$bin/animc" | awk '{ print $1 }' | sed 's/\.so.*//' | tr '\n' ' ')"
    if ldd "$bin/animc" | grep -qi foundation; then echo "# WARNING: animc links Foundation"; fi
    if [ -f scripts/startup.order ] && command -v nm >/dev/null; then
        # How much of the start-up order (scripts/startup-order.sh) the binary still has.
        echo "# code ordered for start-up: $(nm --defined-only "$bin/animc" | awk '{ print $3 }' | sort -u \
            | comm -12 - <(grep -v '^#' scripts/startup.order | sort -u) | wc -l) of the $(grep -vc '^#' scripts/startup.order) functions in scripts/startup.order are in animc"
    fi
    echo
    "$bin/animc-bench" --animc "$bin/animc" --hello "$scratch/hello/hello" \
        --callgrind-dir "$scratch/callgrind" "${extra[@]}" "$@" || status=$?
    if command -v valgrind >/dev/null && { [ $# -eq 0 ] || [[ "$*" == *startup* ]]; }; then
        echo
        other_startup || status=1
    fi
    if [ -f "$scratch/callgrind/callgrind.out.animc" ]; then
        echo
        echo "where animc's start-up instructions go (callgrind_annotate --inclusive=yes, top entries):"
        callgrind_annotate --inclusive=yes "$scratch/callgrind/callgrind.out.animc" 2>/dev/null \
            | grep -E '^ *[0-9,]+ \(' | sed -n '1,25p' | cut -c 1-160 || true
    fi
    exit "$status"
} | tee "$results"
