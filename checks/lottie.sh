#!/usr/bin/env bash
# The Lottie players agree with `animc eval` (docs/exports.md §5):
# every example, generated programs and the test suite's colour-and-event
# fixtures, exported with `animc export --to lottie` and played by lottie-web
# 5.7.4 in headless Chromium and by ThorVG, frame by frame and between frames.
#
#   bash checks/lottie.sh [--programs N] [--seed S] [--pictures DIR] [--keep DIR]
#   ANIMC=PATH bash checks/lottie.sh   # the binary checked (default .build/debug/animc;
#                                     # CI passes the release build, as for checks/render.sh)
#
# Installs what it needs when it is missing: Debian's chromium-headless-shell
# (apt-get, as root), and a Python virtual environment in checks/.venv with
# wagtail-lottie (its wheel ships lottie-web as lottie-player.js) and
# thorvg-python. Prints `N passed, M failed, K skipped`; exits 1 on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=checks/.venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import thorvg_python" 2>/dev/null; then
  "$venv/bin/pip" install --quiet --disable-pip-version-check thorvg-python
fi
player=$(find "$venv" -path '*wagtail_lottie/static/wagtail_lottie/lottie-player.js' 2>/dev/null | head -n 1)
if [ -z "$player" ]; then
  # Only the player file is wanted, not Wagtail and Django.
  "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps wagtail-lottie
  player=$(find "$venv" -path '*wagtail_lottie/static/wagtail_lottie/lottie-player.js' | head -n 1)
fi
if ! command -v chromium-headless-shell > /dev/null; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "checks/lottie.sh: chromium-headless-shell is missing; install it with: apt-get install -y chromium-headless-shell" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell > /dev/null
fi

swift build > /dev/null
# Colours and events have no literals in the language yet: the test suite builds
# such scenes with the library and writes them, with their expected values, here.
fixtures=$(mktemp -d)
trap 'rm -rf "$fixtures"' EXIT
ANIMC_LOTTIE_FIXTURES="$fixtures" swift test --filter LottieFixtures > "$fixtures/swift-test.log" 2>&1 || {
  cat "$fixtures/swift-test.log" >&2
  exit 1
}

exec "$venv/bin/python" checks/lottie_check.py --animc "${ANIMC:-.build/debug/animc}" --player "$player" --fixtures "$fixtures" "$@"
