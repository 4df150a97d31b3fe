#!/usr/bin/env bash
# Export sizes (docs/exports.md §7): the bytes and gzip bytes of every example
# in every `--to` format, and of the issue-35 bob repeated 1, 10, 100 and 1000
# times (and five examples 1000 times, against the §7 targets), so a change to a writer shows what it costs or saves per format.
#
#   bash bench/export-sizes.sh [ANIMC] > bench/export-sizes-after.txt
#
# ANIMC defaults to .build/debug/animc. Each row: NAME FORMAT BYTES GZIP, or
# `refused` in place of the numbers when the export exits non-zero (its first
# error line follows). Totals per format close the table (examples only,
# refusals counted as 0).
#
# Format `js-shared` is the `--to js` module with `--runtime ./animc-runtime.js`
# (its player imported, not held), and the row `animc-runtime js-runtime` the
# file `animc runtime` writes, which a site ships once: TOTAL(examples) of
# js-shared counts the runtime once, beside every example's module.
set -uo pipefail
cd "$(dirname "$0")/.."
animc=${1:-.build/debug/animc}
formats=$("$animc" export --help 2>&1 | sed -n 's/.*\[--to \([a-z|]*\)\].*/\1/p' | head -1 | tr '|' ' ')
[ -n "$formats" ] || formats="html css waapi js lottie svg"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat >"$work/bob.anim" <<'ANIM'
view dot radius 10 color #3a64d8
let bob = move dot from (0, 0) to (0, -40) in 400ms with ease-in-out ; move dot from (0, -40) to (0, 0) in 400ms with ease-in-out
ANIM
for n in 10 100 1000; do
    { cat "$work/bob.anim"; echo "let bob$n = bob ^ $n"; } >"$work/bob-$n.anim"
done

declare -A total total_gz single
row() {   # NAME FORMAT FILE [ARGS...]
    local name=$1 format=$2 file=$3; shift 3
    measure "$name" "$format" export "$file" --to "$format" "$@"
}
measure() {   # NAME FORMAT ANIMC-ARGS...: the row of what `animc ANIMC-ARGS... -o OUT` writes
    local name=$1 format=$2; shift 2
    if "$animc" "$@" -o "$work/out" 2>"$work/err"; then
        local bytes gz
        bytes=$(wc -c <"$work/out")
        gz=$(gzip -9 -n -c "$work/out" | wc -c)
        printf '%-28s %-7s %9d %8d\n' "$name" "$format" "$bytes" "$gz"
        echo "$bytes $gz"  >"$work/last"
    else
        printf '%-28s %-7s  refused: %s\n' "$name" "$format" "$(grep -m1 'error' "$work/err" | sed 's/^[^ ]* //')"
        echo "0 0" >"$work/last"
    fi
}

printf '%-28s %-7s %9s %8s\n' NAME FORMAT BYTES GZIP
for f in examples/*.anim; do
    name=$(basename "$f" .anim)
    for format in $formats; do
        row "$name" "$format" "$f"
        read -r b g <"$work/last"
        single[$name:$format]=$b
        total[$format]=$(( ${total[$format]:-0} + b ))
        total_gz[$format]=$(( ${total_gz[$format]:-0} + g ))
    done
    measure "$name" js-shared export "$f" --to js --runtime ./animc-runtime.js
    read -r b g <"$work/last"
    total[js-shared]=$(( ${total[js-shared]:-0} + b ))
    total_gz[js-shared]=$(( ${total_gz[js-shared]:-0} + g ))
done
measure animc-runtime js-runtime runtime
read -r b g <"$work/last"
total[js-shared]=$(( ${total[js-shared]:-0} + b ))
total_gz[js-shared]=$(( ${total_gz[js-shared]:-0} + g ))
for format in $formats js-shared; do
    printf '%-28s %-7s %9d %8d\n' "TOTAL(examples)" "$format" "${total[$format]}" "${total_gz[$format]}"
done
for n in 1 10 100 1000; do
    file="$work/bob-$n.anim"; [ $n = 1 ] && file="$work/bob.anim"
    for format in $formats; do
        row "bob^$n" "$format" "$file"
    done
done
# Examples whose last binding ends, repeated 1000 times (§7's target: three
# that meet it, then two that do not yet), and how each compares with the
# example once: `bytes(x ^ 1000) / bytes(x)` (at most 1.2) for css, waapi and
# js, and `bytes(x ^ 1000) - bytes(x)` (at most 100 per copy) for lottie.
declare -A repeated
for ex in talk card-flip warps toast button-press; do
    last=$(grep -o '^let [A-Za-z0-9_-]*' "examples/$ex.anim" | tail -1 | cut -c5-)
    { cat "examples/$ex.anim"; echo; echo "let rep1000 = $last ^ 1000"; } >"$work/$ex-1000.anim"
    for format in $formats; do
        row "$ex^1000" "$format" "$work/$ex-1000.anim"
        read -r b g <"$work/last"
        repeated[$ex:$format]=$b
    done
done
for ex in talk card-flip warps toast button-press; do
    for format in css waapi js lottie; do
        once=${single[$ex:$format]:-0} many=${repeated[$ex:$format]:-0}
        if [ "$format" = lottie ]; then
            verdict=$([ "$many" -gt 0 ] && [ $(( many - once )) -le 100000 ] && echo meets || echo misses)
            printf '%-28s %-7s %9s %8s\n' "TARGET $ex^1000" "$format" "+$(( many - once ))" "$verdict"
        else
            verdict=$([ "$many" -gt 0 ] && [ $(( many * 10 )) -le $(( once * 12 )) ] && echo meets || echo misses)
            printf '%-28s %-7s %9s %8s\n' "TARGET $ex^1000" "$format" "$(awk -v a="$many" -v b="$once" 'BEGIN { printf "%.3fx", (b ? a / b : 0) }')" "$verdict"
        fi
    done
done
