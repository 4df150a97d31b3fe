#!/usr/bin/env bash
# animc render draws what the player page shows (exports.md section 8): every
# example and 100 generated programs, each at 10 instants, drawn by `animc
# render` and screenshotted by headless Chromium from the page's clean view
# (`#clean`) at the same size; at most 1 % of pixels may differ by more than
# 8/255 in any channel. Prints `N passed, M failed`. Before that, the animated
# SVG (`animc render -o X.svg`) of every example is seeked in Chromium to
# eval's row times and its computed values compared with eval
# (checks/svg_check.py, its own `N passed, M failed`).
#
#   bash checks/render.sh                                   # what CI runs
#   bash checks/render.sh --generated 20 --keep /tmp/render  # fewer, keeping the pictures side by side
#
# Installs Debian's chromium-headless-shell when no Chromium is there, and
# Pillow in checks/.venv (checks/pillow.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

source checks/install_chromium.sh
source checks/pillow.sh

# ANIMC names the binary to check (CI passes its release build); else the debug build.
if [ -z "${ANIMC:-}" ]; then
  swift build > /dev/null
  ANIMC=.build/debug/animc
fi
svg_status=0
"$python" checks/svg_check.py --animc "$ANIMC" || svg_status=$?
"$python" checks/render_check.py --animc "$ANIMC" "$@"
exit "$svg_status"
