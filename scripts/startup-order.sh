#!/usr/bin/env bash
# Writes scripts/startup.order: the functions `animc` runs when it starts,
# in the order callgrind first meets them. scripts/release.sh hands the file
# to the linker (lld's --symbol-ordering-file), which puts those functions
# side by side at the start of the program's code, so a run touches a few
# dozen pages of code instead of pages all over its 7 MB.
#
#   bash scripts/startup-order.sh      # needs valgrind; takes a few minutes
#
# The file only moves code: a stale one (a function renamed, one added) makes
# start-up a little slower and changes nothing else. Run this after changes to
# what start-up runs; bench/run.sh reports how many of the listed functions
# the measured binary still has.
#
# The runs: `animc eval` of the talk's three lines (the bench's start-up
# workload), `normalize` and `timeline` of the same, and `--help`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v valgrind >/dev/null || { echo "startup-order.sh: needs valgrind" >&2; exit 1; }

scratch=.build-order
bash scripts/release.sh --scratch-path "$scratch" --product animc >&2
bash scripts/release.sh --scratch-path "$scratch" --product animc-bench >&2
bin=$(bash scripts/release.sh --scratch-path "$scratch" --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin/animc-bench" --write-script startup 1 >"$work/three.anim"

runs=("eval $work/three.anim --format csv" "normalize $work/three.anim" "timeline $work/three.anim" "--help")
for i in "${!runs[@]}"; do
    # shellcheck disable=SC2086 # each run is a command line split on spaces
    valgrind --tool=callgrind --demangle=no --dump-instr=no --callgrind-out-file="$work/run$i.cg" \
        "$bin/animc" ${runs[$i]} >/dev/null 2>"$work/run$i.err" || true
done

# Functions defined in the binary (nm's t, T, w, W), then every function the
# runs called, first met first, kept when the binary defines it.
nm --defined-only "$bin/animc" | awk '$2 ~ /^[tTwW]$/ { print $3 }' | sort -u >"$work/defined"
{
    echo "# Functions animc runs at start-up, first met first: written by scripts/startup-order.sh"
    echo "# (do not edit; lld's --symbol-ordering-file, see scripts/release.sh)."
    for i in "${!runs[@]}"; do
        # callgrind names a function once in full, `fn=(ID) NAME`, then by ID.
        sed -n 's/^c\{0,1\}fn=([0-9]*) \(.*\)$/\1/p' "$work/run$i.cg"
    done | awk 'NR == FNR { defined[$0] = 1; next } ($0 in defined) && !($0 in seen) { seen[$0] = 1; print }' \
        "$work/defined" -
} >scripts/startup.order
echo "scripts/startup.order: $(grep -vc '^#' scripts/startup.order) functions" >&2
