#!/usr/bin/env bash
# Decoders that are not animc's read its moving pictures (docs/exports.md §8,
# issue 36): Pillow decodes the GIF and APNG of every example rendered by
# `animc render` (frame count, delays, loop count, first and last frames
# against the PNG frames), ffprobe the MP4 and WebM when ffmpeg is
# installed. Before that, the encoders' own fixtures (written by the test
# suite, `PictureFixtures`) are decoded the same way, so the check runs
# where `animc render` does not exist yet.
#
#   bash checks/decode.sh [--fps N] [--keep DIR]
#
# Installs Pillow in checks/.venv when it is missing. Prints
# `N passed, M failed`; exits 1 on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=checks/.venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import PIL" 2>/dev/null; then
  "$venv/bin/pip" install --quiet --disable-pip-version-check pillow
fi

swift build > /dev/null
fixtures=$(mktemp -d)
trap 'rm -rf "$fixtures"' EXIT
ANIMC_PICTURE_FIXTURES="$fixtures" swift test --filter PictureFixtures > "$fixtures/swift-test.log" 2>&1 || {
  cat "$fixtures/swift-test.log" >&2
  exit 1
}
arguments=(--fixtures "$fixtures")
if .build/debug/animc render --help > /dev/null 2>&1; then
  arguments+=(--animc .build/debug/animc)
else
  echo "checks/decode.sh: animc has no render command yet: decoding the encoders' fixtures only" >&2
fi
exec "$venv/bin/python" checks/render_decode.py "${arguments[@]}" "$@"
