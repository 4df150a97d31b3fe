#!/usr/bin/env bash
# The release build of animc as it is installed, in one place: README's
# install line, bench/run.sh, bench/instructions.sh and bench/lsp.sh all build
# through this file, so what is measured is what is installed.
#
#   bash scripts/release.sh                  # builds .build/release/animc
#   bash scripts/release.sh --shared         # the standard library as shared libraries
#   bash scripts/release.sh ARGS...          # extra arguments go to `swift build`
#                                            # (e.g. --scratch-path DIR --product animc)
#
# Sourced (`source scripts/release.sh --flags-only`) it only defines the
# flags: release_flags (for `swift build`) and hello_flags (for `swiftc`, the
# hello world that start-up is compared with, built alike).
#
# Besides `-c release` and `--static-swift-stdlib`, these flags shorten
# start-up; none changes what the program computes:
#
# - `-disable-concrete-type-metadata-mangled-name-accessors` (a frontend
#   option): by default the compiler finds the type of, say, an array of
#   tokens at run time by demangling its name, which checks its generic
#   requirements against every protocol conformance in the binary the first
#   time. With the option the code calls the type's metadata accessor
#   directly. For the talk's 3-line script this is about 0.6 M of the 3.9 M
#   instructions of the whole process.
# - `--no-export-dynamic` (a linker option): SwiftPM exports every symbol of
#   an executable, and the runtime's start-up `dladdr` then walks about 3,200
#   of them (0.1 M instructions). Crash backtraces still read the binary's
#   own symbol table.
# - `-function-sections` (a frontend option), lld (`-use-ld=lld`, shipped with
#   the toolchain) and its `--symbol-ordering-file=scripts/startup.order`:
#   each function gets a section of its own, and the linker puts the ones
#   start-up runs (listed by scripts/startup-order.sh) side by side at the
#   start of the code. A run of the talk's 3-line script then faults in about
#   35 pages of code instead of 72, and its wall time drops by a tenth; the
#   instructions are the same. A stale list only makes start-up slower. The
#   hello world gets the same flags and the same list.
#
# Where the toolchain has no ld.lld, the script says so and builds with the
# system's linker and no ordering.

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
release_flags=(-c release
    -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
    -Xlinker --no-export-dynamic)
hello_flags=(-O -Xfrontend -disable-concrete-type-metadata-mangled-name-accessors)
if [ -x "$(dirname "$(command -v swiftc)")/ld.lld" ]; then
    ordering=(-Xlinker "--symbol-ordering-file=$root/scripts/startup.order" -Xlinker --no-warn-symbol-ordering)
    release_flags+=(-Xswiftc -Xfrontend -Xswiftc -function-sections -Xswiftc -use-ld=lld "${ordering[@]}")
    hello_flags+=(-Xfrontend -function-sections -use-ld=lld "${ordering[@]}")
else
    echo "scripts/release.sh: no ld.lld next to swiftc: linking with the default linker, code not ordered" >&2
fi

if [ "${1:-}" = --flags-only ]; then
    return 0 2>/dev/null || exit 0
fi

set -euo pipefail
cd "$root"
link=(--static-swift-stdlib)
if [ "${1:-}" = --shared ]; then link=(); shift; fi
swift build "${release_flags[@]}" "${link[@]}" "$@"
