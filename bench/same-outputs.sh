#!/usr/bin/env bash
# Byte-identity check for performance work: runs two animc binaries on every
# example (every command and format users read) and on the bench's generated
# scripts, and compares stdout, stderr and exit status.
#
#   bash bench/same-outputs.sh OLD_ANIMC NEW_ANIMC [BENCH_BIN]
#
# BENCH_BIN (default: animc-bench next to NEW_ANIMC) writes the generated
# scripts. Prints `N passed, M failed`; exits 1 when anything differs.
set -uo pipefail
cd "$(dirname "$0")/.."
old=$1 new=$2
bench=${3:-$(dirname "$new")/animc-bench}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

passed=0 failed=0
compare() {   # LABEL ARGS... (FILE among them)
    local label=$1; shift
    "$old" "$@" >"$work/old.out" 2>"$work/old.err"; local a=$?
    "$new" "$@" >"$work/new.out" 2>"$work/new.err"; local b=$?
    if [ $a = $b ] && cmp -s "$work/old.out" "$work/new.out" && cmp -s "$work/old.err" "$work/new.err"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "DIFFERS: $label: animc $* (status $a vs $b)"
        diff <(head -c 100000 "$work/old.out") <(head -c 100000 "$work/new.out") | head -5
        diff "$work/old.err" "$work/new.err" | head -5
    fi
}

for file in examples/*.anim; do
    name=$(basename "$file" .anim)
    for format in table csv json; do compare "$name" eval "$file" --format "$format"; done
    compare "$name" eval "$file" --fps 7 --format csv
    compare "$name" check "$file"
    compare "$name" normalize "$file"
    compare "$name" normalize "$file" --binding distributed
    compare "$name" timeline "$file"
    for to in html css waapi js lottie; do compare "$name" export "$file" --to "$to"; done
    compare "$name" plot "$file"
done

# The bench's generated scripts (smaller sizes, so this takes seconds).
if [ -x "$bench" ]; then
    for spec in chain:2000 chain-by:2000 chain-lets:1000 parallel:2000 stagger:50 large:200000 startup:1; do
        kind=${spec%%:*} n=${spec#*:}
        "$bench" --write-script "$kind" "$n" >"$work/$kind.anim"
        compare "$kind" eval "$work/$kind.anim" --fps 10 --format csv
        compare "$kind" check "$work/$kind.anim"
        compare "$kind" normalize "$work/$kind.anim"
        compare "$kind" timeline "$work/$kind.anim"
    done
else
    echo "no $bench: the generated scripts were not compared"
fi

# Diagnostics and odd inputs: the malformed corpus and the fuzz seeds.
for file in Tests/AnimLangTests/Golden/malformed/*.anim fuzz/seeds/*.anim; do
    [ -f "$file" ] || continue
    compare "$(basename "$file")" check "$file"
    compare "$(basename "$file")" eval "$file"
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
