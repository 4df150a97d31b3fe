#!/usr/bin/env bash
# Callgrind instruction counts per workload (repeatable to 0.01 %, unlike wall
# time on a shared machine). Uses the release binaries that bench/run.sh builds
# (by default its static build; give .build-bench/... for ANIMC_LINK=dynamic's).
#
#   bash bench/instructions.sh [BIN_DIR] > bench/instructions-LABEL.txt
#
# Each line: workload, N, instructions of the whole process (start-up and, for
# the animc-bench rows, input generation included).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build-static/x86_64-unknown-linux-gnu/release}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

count() {   # LABEL N COMMAND...
    local label=$1 n=$2; shift 2
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$@" >/dev/null 2>"$work/cg.err" || {
        echo "$label $n FAILED"; return; }
    printf '%-18s %8s %16s\n' "$label" "$n" "$(grep -o 'Collected : [0-9]*' "$work/cg.err" | awk '{ print $3 }')"
}

# The scripts `animc eval` reads, written by the bench itself: the chain and
# the start-up workload's three lines.
"$bin/animc-bench" --write-script chain 20000 >"$work/chain-20000.anim"
"$bin/animc-bench" --write-script startup 1 >"$work/three.anim"
"$bin/animc-bench" --write-script overlap 20000 >"$work/overlap-20000.anim"

printf '%-18s %8s %16s\n' workload N instructions
count startup-animc 3 "$bin/animc" eval "$work/three.anim" --format csv
hello=${HELLO:-$bin/../../hello/hello}
[ -x "$hello" ] && count startup-hello 0 "$hello"
count chain-animc 20000 "$bin/animc" eval "$work/chain-20000.anim" --fps 10 --format csv
count overlap-animc 20000 "$bin/animc" eval "$work/overlap-20000.anim" --fps 10 --format csv
for w in chain-script:20000 chain-api:20000 stagger-script:1000 script-1mb:1048576 parallel-api:2000 overlap-script:20000 ${EXTRA_WORKLOADS:-}; do
    count "${w%%:*}" "${w#*:}" "$bin/animc-bench" --workload "${w%%:*}" --n "${w#*:}"
done
