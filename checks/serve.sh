#!/usr/bin/env bash
# `animc serve` (exports.md section 6, "Live preview"): the page follows the
# file in headless Chromium (checks/serve_check.py), and the server holds up
# under abuse on the loopback address (checks/serve_robustness.py).
#
#   bash checks/serve.sh    # what CI runs; it refreshes docs/images/serve-overlay.png
#
# Installs Debian's chromium-headless-shell when no Chromium is there.
set -euo pipefail
cd "$(dirname "$0")/.."

source checks/install_chromium.sh

swift build
status=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "== the page follows the file (checks/serve_check.py)"
python3 checks/serve_check.py --animc .build/debug/animc --screenshot docs/images/serve-overlay.png | tee -a "$log" || status=1
echo "== the server under abuse (checks/serve_robustness.py)"
python3 checks/serve_robustness.py --animc .build/debug/animc | tee -a "$log" || status=1
echo "== serve, in all"
awk '/^[0-9]+ passed, [0-9]+ failed$/ { p += $1; f += $3 } END { print p " passed, " f " failed" }' "$log"
exit $status
