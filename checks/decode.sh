#!/usr/bin/env bash
# Decoders that are not animc's read its moving pictures (docs/exports.md §8,
# issue 36): Pillow decodes the GIF and APNG of every example rendered by
# `animc render` (frame count, delays, loop count, first and last frames
# against the PNG frames), ffprobe the MP4 and WebM when ffmpeg is
# installed. Before that, the encoders' own fixtures (written by the test
# suite, `PictureFixtures`) are decoded the same way, so the check runs
# where `animc render` does not exist yet.
#
#   bash checks/decode.sh [--fps N] [--scale X] [--jobs N] [--keep DIR]
#
# Installs Pillow in checks/.venv when it is missing. Prints
# `N passed, M failed`; exits 1 on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

source checks/pillow.sh

# ANIMC names the binary to check (CI passes its release build); else the debug build.
if [ -z "${ANIMC:-}" ]; then
  swift build > /dev/null
  ANIMC=.build/debug/animc
fi
fixtures=$(mktemp -d)
trap 'rm -rf "$fixtures"' EXIT
ANIMC_PICTURE_FIXTURES="$fixtures" swift test --filter PictureFixtures > "$fixtures/swift-test.log" 2>&1 || {
  cat "$fixtures/swift-test.log" >&2
  exit 1
}
arguments=(--fixtures "$fixtures")
if "$ANIMC" render --help > /dev/null 2>&1; then
  arguments+=(--animc "$ANIMC")
else
  echo "checks/decode.sh: animc has no render command yet: decoding the encoders' fixtures only" >&2
fi
exec "$python" checks/render_decode.py "${arguments[@]}" "$@"
