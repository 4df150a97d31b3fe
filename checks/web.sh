#!/usr/bin/env bash
# The browser agrees with `animc eval` (exports.md section 5): every example
# and 204 generated programs (17 of them repeat forever, 17 repeat a part up
# to 10^9 times), exported as the player page and as CSS,
# opened in headless Chromium, compared at every row of `animc eval`'s CSV; then
# screenshots of the player for people to look at (docs/images/); then web
# exports in a real page (checks/web_options.py: two exports with their own
# --prefix and --selector on one page, the --to js module played, seeked and
# heard, modules sharing one `animc runtime` playing as the self-contained
# ones, the stylesheet's drawing rules pasted as written).
#
#   bash checks/web.sh                      # what CI runs
#   bash checks/web.sh --generated 300 --seed 7 --keep /tmp/web   # more, keeping the files
#
# Installs Debian's chromium-headless-shell when no Chromium is there.
set -euo pipefail
cd "$(dirname "$0")/.."

source checks/install_chromium.sh

swift build
python3 checks/web_check.py --animc .build/debug/animc --screenshots docs/images "$@"
python3 checks/web_options.py --animc .build/debug/animc
