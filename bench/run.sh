#!/usr/bin/env bash
# Builds animc and animc-bench in release mode (scratch path .build-bench),
# runs every scale workload, the start-up comparison against a hello world
# and the callgrind instruction counts, and writes bench/results.txt.
#
#   bash bench/run.sh                    # everything (a few minutes)
#   bash bench/run.sh --only chain       # extra arguments go to animc-bench
#
# Exits with animc-bench's status (pipefail): non-zero when a target is missed.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-bench
swift build -c release --scratch-path "$scratch" --product animc >&2
swift build -c release --scratch-path "$scratch" --product animc-bench >&2
bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path)

# The baseline for start-up: a hello world with the same optimisation (and
# the same linking: the standard library as shared libraries, as `swift build`
# links animc).
mkdir -p "$scratch/hello" "$scratch/callgrind"
swiftc -O bench/hello/main.swift -o "$scratch/hello/hello"

# ANIMC_STATIC=1: also start-up with the standard library linked in, both
# binaries alike (`swift build --static-swift-stdlib`, a build option, and
# `swiftc -static-stdlib`): a static animc is only ever compared with a
# static hello world. Another scratch path, so the dynamic build stays as is.
static_startup() {
    local static=.build-static
    swift build -c release --static-swift-stdlib --scratch-path "$static" --product animc >&2
    swiftc -O -static-stdlib bench/hello/main.swift -o "$scratch/hello/hello-static"
    local sbin work
    sbin=$(swift build -c release --static-swift-stdlib --scratch-path "$static" --show-bin-path)
    work=$(mktemp -d)
    printf 'let left = shrink circle from radius 100 to 10 with an ease-in-out\nlet right = rotate square from 0 to 2*pi radians with a high ease-out\nlet final = fadeIn all views * ((left + right) looped once)\n' > "$work/three.anim"
    local animc hello
    animc=$(valgrind --tool=callgrind --callgrind-out-file="$work/a.cg" "$sbin/animc" eval "$work/three.anim" --format csv 2>&1 >/dev/null \
        | grep -o 'Collected : [0-9]*' | awk '{ print $3 }')
    hello=$(valgrind --tool=callgrind --callgrind-out-file="$work/h.cg" "$scratch/hello/hello-static" 2>&1 >/dev/null \
        | grep -o 'Collected : [0-9]*' | awk '{ print $3 }')
    rm -rf "$work"
    echo "start-up, standard library linked statically (both): animc $animc instructions, hello world $hello," \
         "$(awk -v a="$animc" -v h="$hello" 'BEGIN { printf "%.2f", a / h }')×"
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

results=bench/results.txt
{
    status=0
    echo "# bench/results.txt: written by bench/run.sh"
    echo "# $(date -u +%Y-%m-%dT%H:%MZ); $(describe_tree)"
    echo "# $(swift --version 2>&1 | head -n 1)"
    echo "# $(nproc) cores; load average before the run: $(cut -d ' ' -f 1-3 /proc/loadavg)"
    echo "# animc links: $(ldd "$bin/animc" | awk '{ print $1 }' | sed 's/\.so.*//' | tr '\n' ' ')"
    if ldd "$bin/animc" | grep -qi foundation; then echo "# WARNING: animc links Foundation"; fi
    echo
    "$bin/animc-bench" --animc "$bin/animc" --hello "$scratch/hello/hello" \
        --callgrind-dir "$scratch/callgrind" "${extra[@]}" "$@" || status=$?
    if [ "${ANIMC_STATIC:-0}" = 1 ] && command -v valgrind >/dev/null; then
        echo
        static_startup
    fi
    if [ -f "$scratch/callgrind/callgrind.out.animc" ]; then
        echo
        echo "where animc's start-up instructions go (callgrind_annotate --inclusive=yes, top entries):"
        callgrind_annotate --inclusive=yes "$scratch/callgrind/callgrind.out.animc" 2>/dev/null \
            | grep -E '^ *[0-9,]+ \(' | sed -n '1,25p' | cut -c 1-160 || true
    fi
    exit "$status"
} | tee "$results"
