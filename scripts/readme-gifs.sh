#!/usr/bin/env bash
# The moving pictures of README.md and docs/exports.md, drawn by `animc
# render` (docs/exports.md §8): small GIFs (about 320 px wide, 20 fps, a few
# seconds) under docs/images/. Run again after a change to the examples or to
# how the stage is drawn, and commit what changed.
#
#   bash scripts/readme-gifs.sh [ANIMC]     # default: the debug build (swift build)
set -euo pipefail
cd "$(dirname "$0")/.."

animc=${1:-}
if [ -z "$animc" ]; then
  swift build > /dev/null
  animc=.build/debug/animc
fi

# name, then render's options: the whole animation, or a few seconds of one that repeats forever.
while read -r name options; do
  # shellcheck disable=SC2086
  "$animc" render "examples/$name.anim" -o "docs/images/$name.gif" --fps 20 --size 320x200 $options
  echo "docs/images/$name.gif: $(wc -c < "docs/images/$name.gif") bytes"
done <<'LIST'
choreography
talk
confetti
progress-bar
card-flip
LIST
