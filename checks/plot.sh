#!/usr/bin/env bash
# `animc plot` draws alike in rsvg-convert and in Chromium: every example and
# the plot fixtures (Tests/AnimOutputsTests/Golden/plot/fixtures/) are plotted,
# each SVG is rendered by `rsvg-convert` and by `chromium-headless-shell
# --screenshot` (a renderer that fails, or a PNG of the wrong size, is a
# failure), and for two examples the two renderings are compared pixel by
# pixel and saved for people to look at: docs/images/plot-NAME-rsvg.png and
# docs/images/plot-NAME-chromium.png.
#
#   bash checks/plot.sh                    # what CI runs
#   bash checks/plot.sh --keep /tmp/plots  # keep the SVGs and PNGs
#
# A file's `# plot: ARGS` line (say `--until 3`) is passed to `animc plot`;
# without one, the `--until T` of its `# eval:` line.
# Installs Debian's librsvg2-bin and chromium-headless-shell when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

keep=""
if [ "${1:-}" = "--keep" ]; then keep="${2:?--keep needs a directory}"; fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
missing=()
command -v rsvg-convert >/dev/null 2>&1 || missing+=(librsvg2-bin)
chromium=""
for candidate in chromium-headless-shell /usr/lib/chromium/chromium-headless-shell chromium; do
  if command -v "$candidate" >/dev/null 2>&1; then chromium="$candidate"; break; fi
done
[ -n "$chromium" ] || missing+=(chromium-headless-shell)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "== installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  [ -n "$chromium" ] || chromium=chromium-headless-shell
fi
chromium_flags=(--headless --disable-gpu --hide-scrollbars --mute-audio --no-first-run --disable-dev-shm-usage)
if [ "$(id -u)" -eq 0 ]; then chromium_flags+=(--no-sandbox); fi

swift build
animc=.build/debug/animc
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

passed=0
failed=0
fail() {
  echo "FAIL $1"
  failed=$((failed + 1))
}

# The width and height of a PNG, from its IHDR chunk.
png_size() {
  od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%d %d\n", $1*16777216 + $2*65536 + $3*256 + $4, $5*16777216 + $6*65536 + $7*256 + $8 }'
}

for source in examples/*.anim Tests/AnimOutputsTests/Golden/plot/fixtures/*.anim; do
  name=$(basename "$source" .anim)
  args=$(sed -n 's/^# plot: //p' "$source" | head -n 1)
  if [ -z "$args" ]; then
    # An example that repeats forever says where to stop on its `# eval:` line.
    args=$(sed -n 's/^# eval: .*\(--until [^ ]*\).*/\1/p' "$source" | head -n 1)
  fi
  svg="$work/$name.svg"
  # shellcheck disable=SC2086
  if ! "$animc" plot "$source" $args -o "$svg" 2>"$work/$name.err"; then
    fail "$name: animc plot failed: $(cat "$work/$name.err")"
    continue
  fi
  width=$(sed -n 's/.*<svg [^>]*width="\([0-9.]*\)" height="\([0-9.]*\)".*/\1/p' "$svg" | head -n 1)
  height=$(sed -n 's/.*<svg [^>]*width="\([0-9.]*\)" height="\([0-9.]*\)".*/\2/p' "$svg" | head -n 1)
  if [ -z "$width" ] || [ -z "$height" ]; then
    fail "$name: no width and height on the svg element"
    continue
  fi
  width=${width%.*}
  height=${height%.*}
  if ! rsvg-convert "$svg" -o "$work/$name-rsvg.png" 2>"$work/$name.rsvg.err"; then
    fail "$name: rsvg-convert: $(cat "$work/$name.rsvg.err")"
    continue
  fi
  if [ "$(png_size "$work/$name-rsvg.png")" != "$width $height" ]; then
    fail "$name: rsvg-convert drew $(png_size "$work/$name-rsvg.png"), not $width $height"
    continue
  fi
  if ! "$chromium" "${chromium_flags[@]}" --window-size="$width,$height" --screenshot="$work/$name-chromium.png" \
      "file://$svg" >/dev/null 2>"$work/$name.chromium.err"; then
    fail "$name: chromium could not take a screenshot: $(tail -n 3 "$work/$name.chromium.err")"
    continue
  fi
  if [ ! -s "$work/$name-chromium.png" ] || [ "$(png_size "$work/$name-chromium.png")" != "$width $height" ]; then
    fail "$name: chromium's screenshot is missing or not $width x $height"
    continue
  fi
  passed=$((passed + 1))
done

# Two examples: the renderers agree pixel by pixel (but for antialiasing),
# and their pictures go to docs/images for the README.
for name in choreography talk; do
  if ! comparison=$(python3 checks/png_compare.py "$work/$name-rsvg.png" "$work/$name-chromium.png"); then
    fail "$name: rsvg-convert and chromium differ: $comparison"
    continue
  fi
  echo "$name: rsvg-convert and chromium agree: $comparison"
  mkdir -p docs/images
  cp "$work/$name-rsvg.png" "docs/images/plot-$name-rsvg.png"
  cp "$work/$name-chromium.png" "docs/images/plot-$name-chromium.png"
  passed=$((passed + 1))
done

if [ -n "$keep" ]; then
  mkdir -p "$keep"
  cp "$work"/*.svg "$work"/*.png "$keep"/
  echo "kept the SVGs and PNGs in $keep"
fi
echo "plot: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
