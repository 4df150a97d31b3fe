#!/usr/bin/env bash
# Builds the libFuzzer target for the whole animc pipeline (fuzz/FuzzTarget.swift)
# and runs it for SECONDS seconds (default 60).
#
#   fuzz/run.sh 600                 # ten minutes
#   fuzz/run.sh 60 -jobs=2          # extra arguments go to libFuzzer
#   fuzz/run.sh repro CRASH_FILE    # run one input (a saved crash) and exit
#
# The target is built with swiftc, outside SwiftPM, so `swift build` and
# `swift test` never see it: Animations, AnimLang, AnimJSON, AnimOutputs, then the driver, each
# with coverage instrumentation and AddressSanitizer (-sanitize=fuzzer,address).
# Build products go to .build-libfuzzer/, the growing corpus to fuzz/corpus-run/
# and crashes to fuzz/artifacts/ (all git-ignored). The committed seeds in
# fuzz/seeds/ and the examples start the corpus; fuzz/anim.dict lists the
# language's words and punctuation for libFuzzer's mutations. An input that
# starts `#repeat N` stands for its body written N times (see expand() in
# FuzzTarget.swift), so short inputs can reach long `let` chains.
#
# A crash, leak or broken invariant stops the run and leaves the input in
# fuzz/artifacts/; add it to Tests/AnimLangTests/Golden/malformed/ (with its
# `# expect:` lines) or to RobustnessTests, then fix it.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=run
if [[ "${1:-}" == "repro" ]]; then
  mode=repro
  shift
  [[ $# -ge 1 ]] || { echo "usage: fuzz/run.sh repro FILE..." >&2; exit 2; }
  seconds=0
else
  seconds="${1:-60}"
  shift || true
  [[ "$seconds" =~ ^[0-9]+$ ]] || { echo "usage: fuzz/run.sh SECONDS [libFuzzer options]" >&2; exit 2; }
fi

out=.build-libfuzzer
mkdir -p "$out" fuzz/corpus-run fuzz/artifacts
flags=(-parse-as-library -sanitize=fuzzer,address -O -g -use-ld=lld -package-name animc)

newer() {   # newer TARGET SOURCES...: whether TARGET is missing or older than a source
  local target=$1; shift
  [[ -e "$target" ]] || return 0
  local source
  for source in "$@"; do [[ "$source" -nt "$target" ]] && return 0; done
  return 1
}

animations=(Sources/Animations/*.swift)
animlang=(Sources/AnimLang/*.swift)
animjson=(Sources/AnimJSON/*.swift)
# AnimOutputs' web files become Swift at build time (the package's WebFiles plugin runs
# animc-webfiles); built outside SwiftPM, the same tool makes the same WebFiles.swift here.
web=(Sources/AnimOutputs/Web/*.js Sources/AnimOutputs/Web/*.css Sources/AnimOutputs/Web/*.html)
if newer "$out/animc-webfiles" Sources/animc-webfiles/*.swift; then
  echo "== compiling animc-webfiles"
  swiftc -O -module-name animc_webfiles Sources/animc-webfiles/*.swift -o "$out/animc-webfiles"
fi
if newer "$out/WebFiles.swift" "${web[@]}" "$out/animc-webfiles"; then
  "$out/animc-webfiles" "$out/WebFiles.swift" "${web[@]}"
fi
animoutputs=(Sources/AnimOutputs/*.swift "$out/WebFiles.swift")
if newer "$out/Animations.o" "${animations[@]}" "$0"; then
  echo "== compiling Animations"
  swiftc "${flags[@]}" -wmo -module-name Animations -emit-module -emit-module-path "$out/Animations.swiftmodule" \
    -c "${animations[@]}" -o "$out/Animations.o"
fi
if newer "$out/AnimLang.o" "${animlang[@]}" "$out/Animations.o"; then
  echo "== compiling AnimLang"
  swiftc "${flags[@]}" -wmo -module-name AnimLang -I "$out" -emit-module -emit-module-path "$out/AnimLang.swiftmodule" \
    -c "${animlang[@]}" -o "$out/AnimLang.o"
fi
if newer "$out/AnimJSON.o" "${animjson[@]}" "$out/Animations.o"; then
  echo "== compiling AnimJSON"
  swiftc "${flags[@]}" -wmo -module-name AnimJSON -I "$out" -emit-module -emit-module-path "$out/AnimJSON.swiftmodule" \
    -c "${animjson[@]}" -o "$out/AnimJSON.o"
fi
if newer "$out/AnimOutputs.o" "${animoutputs[@]}" "$out/AnimLang.o" "$out/AnimJSON.o"; then
  echo "== compiling AnimOutputs"
  swiftc "${flags[@]}" -wmo -module-name AnimOutputs -I "$out" -emit-module -emit-module-path "$out/AnimOutputs.swiftmodule" \
    -c "${animoutputs[@]}" -o "$out/AnimOutputs.o"
fi
objects=("$out/AnimOutputs.o" "$out/AnimJSON.o" "$out/AnimLang.o" "$out/Animations.o")
if newer "$out/fuzz-animc" fuzz/FuzzTarget.swift "${objects[@]}"; then
  echo "== linking fuzz-animc"
  swiftc "${flags[@]}" -module-name FuzzAnimc -I "$out" fuzz/FuzzTarget.swift "${objects[@]}" \
    -o "$out/fuzz-animc"
fi

# Swift's backtracer and ASan both want the crash signal; ASan must have it.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:handle_abort=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/fuzz/lsan.supp:print_suppressions=0}"

if [[ $mode == repro ]]; then
  exec "$out/fuzz-animc" "$@"
fi

echo "== fuzzing for ${seconds}s"
"$out/fuzz-animc" fuzz/corpus-run fuzz/seeds examples \
  -dict=fuzz/anim.dict -max_total_time="$seconds" -timeout=10 -max_len=4096 -rss_limit_mb=2560 \
  -artifact_prefix=fuzz/artifacts/ -print_final_stats=1 "$@"
