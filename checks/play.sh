#!/usr/bin/env bash
# animc play in a real terminal: tmux runs it in a detached session of a
# fixed size (its own server, so it touches no other tmux), send-keys types
# and capture-pane reads the screen. Frames advance, space pauses (two
# captures apart are identical), → seeks 0.1 s, a resize redraws within the
# new width, q quits back to the normal screen with the terminal sane (icanon
# and echo on, the cursor visible), SIGTERM does too, a finished animation
# waits on its last frame, a cancelled one only says so, and `animc play |
# cat` is a usage error. Saves a frame of choreography.anim (paused at
# exactly 1.2 s) to docs/play-choreography.txt. Prints `N passed, M failed`.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD

if ! command -v tmux > /dev/null; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq > /dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq tmux > /dev/null
fi
swift build 2>&1 | tail -n 1
animc="$root/.build/debug/animc"

passed=0
failed=0
check() {   # check DESCRIPTION COMMAND...: one result
  local description=$1
  shift
  if "$@"; then
    passed=$((passed + 1))
    echo "ok    $description"
  else
    failed=$((failed + 1))
    echo "FAIL  $description"
  fi
}

work=$(mktemp -d)
export TERM=${TERM:-xterm-256color}
[ "$TERM" = dumb ] && export TERM=xterm-256color
server="animc-play-$$"
t() { tmux -L "$server" -f /dev/null "$@"; }
cleanup() {
  t kill-server 2> /dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# waits up to 5 s for a condition (a command) to hold
wait_for() {
  local tries
  for tries in $(seq 1 50); do
    if "$@"; then return 0; fi
    sleep 0.1
  done
  return 1
}
alternate() { [ "$(t display -p -t play '#{alternate_on}')" = "$1" ]; }
screen() { t capture-pane -p -t play; }
file_says() { [ -f "$1" ] && grep -q -- "$2" "$1"; }
# the time on the frame's second line (`time  ███░░░  0.577 / 2.100 s`)
shown_time() { sed -n 2p "$1" | grep -o '[0-9][0-9.]* /' | head -n 1 | cut -d ' ' -f 1; }
later() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(b > a) }'; }
same() { cmp -s "$1" "$2"; }
fits() {   # fits FILE WIDTH: no line is wider than WIDTH characters
  local line
  while IFS= read -r line; do
    [ "$(printf '%s' "$line" | LC_ALL=C.UTF-8 wc -m)" -le "$2" ] || return 1
  done < "$1"
}
sane() {   # the pane's terminal is back in cooked mode
  rm -f "$work/stty"
  t send-keys -t play "stty -a > $work/stty" Enter
  wait_for file_says "$work/stty" "icanon" || return 1
  grep -qw -- "icanon" "$work/stty" && ! grep -qw -- "-icanon" "$work/stty" \
    && grep -qw -- "echo" "$work/stty" && ! grep -qw -- "-echo" "$work/stty"
}
run_in_pane() {   # run_in_pane STATUSFILE ARGUMENTS...: animc in the pane, its exit status to STATUSFILE
  local status=$1
  shift
  rm -f "$status"
  t send-keys -t play "clear; $animc $* ; echo \"exit=\$?\" > $status" Enter
}

t new-session -d -s play -x 100 -y 30 "env PS1='$ ' bash --norc --noprofile"
prompt() { screen | grep -q '^\$'; }
wait_for prompt

# 1. Frames advance.
run_in_pane "$work/status" play examples/choreography.anim --speed 0.5
check "play enters the alternate screen" wait_for alternate 1
sleep 0.3
screen > "$work/a"
sleep 0.6
screen > "$work/b"
check "frames advance ($(shown_time "$work/a") s, then $(shown_time "$work/b") s)" \
  later "$(shown_time "$work/a")" "$(shown_time "$work/b")"
check "the frame shows every property of choreography.anim" \
  bash -c "grep -q '^card.opacity ' $work/b && grep -q '^card.rotation ' $work/b && grep -q '^card.scale ' $work/b && grep -q '^card.y ' $work/b"
check "the frame fits in 100 columns" fits "$work/b" 100

# 2. Space pauses: two captures half a second apart are identical.
t send-keys -t play Space
sleep 0.3
screen > "$work/c"
sleep 0.6
screen > "$work/d"
check "pause holds (both at $(shown_time "$work/d") s)" same "$work/c" "$work/d"
check "the header says paused" grep -q "paused" "$work/d"

# 3. Seeks land on exact tenths: back to the start, then 12 × → is 1.2 s.
t send-keys -t play 0
for _ in $(seq 1 11); do t send-keys -t play Right; done
t send-keys -t play l
wait_for bash -c "tmux -L $server capture-pane -p -t play | sed -n 2p | grep -q ' 1.200 / '"
screen > "$work/e"
check "0 then 12 seeks show 1.200 s" test "$(shown_time "$work/e")" = "1.200"
check "the values at 1.2 s are eval's" bash -c "
  row=\$($animc eval examples/choreography.anim --at 1.2 --format table | tail -n 1)
  for value in \$(echo \"\$row\" | awk '{ for (i = 2; i <= NF; i++) print \$i }'); do
    grep -q -- \" \$value \" $work/e || grep -q -- \" \$value\$\" $work/e || exit 1
  done"
cp "$work/e" docs/play-choreography.txt

# 4. A resize redraws within the new size.
t resize-window -t play -x 50 -y 16
sleep 0.4
screen > "$work/f"
check "after a resize to 50×16 every line fits" fits "$work/f" 50
check "after a resize the frame is redrawn (time line at 1.200)" test "$(shown_time "$work/f")" = "1.200"
t resize-window -t play -x 100 -y 30
sleep 0.2

# 5. q quits: the normal screen, a sane terminal, a visible cursor, exit 0.
t send-keys -t play q
check "q quits back to the normal screen" wait_for alternate 0
check "q exits 0" wait_for file_says "$work/status" "exit=0"
check "the shell's prompt is back on the screen" bash -c "tmux -L $server capture-pane -p -t play | head -n 1 | grep -q '^\\$'"
check "the cursor is visible again" test "$(t display -p -t play '#{cursor_flag}')" = 1
check "the terminal is sane after q (icanon echo)" sane

# 6. SIGTERM: the handler restores the terminal, exit 128 + 15.
run_in_pane "$work/status" play examples/talk.anim --loop
wait_for alternate 1
shell=$(t display -p -t play '#{pane_pid}')
player=$(pgrep -P "$shell" -x animc | head -n 1)
if [ -n "$player" ]; then kill -TERM "$player"; fi
check "SIGTERM leaves the alternate screen" wait_for alternate 0
check "SIGTERM exits 143" wait_for file_says "$work/status" "exit=143"
check "the terminal is sane after SIGTERM" sane

# 7. A finished animation holds its last frame until q.
printf 'let a = animate v.x from 0 to 10 in 200ms ; emit land\n' > "$work/short.anim"
run_in_pane "$work/status" play "$work/short.anim"
wait_for alternate 1
sleep 0.8
screen > "$work/g"
check "the end holds the last frame and waits" bash -c "grep -q '■ end' $work/g && grep -q '10.0000' $work/g && grep -q 'log .*0.200 land' $work/g"
check "still running at the end" alternate 1
t send-keys -t play q
check "q quits after the end" wait_for file_says "$work/status" "exit=0"

# 8. A cancelled animation says so, exit 0, no alternate screen.
run_in_pane "$work/status" play examples/cancelled.anim
check "a cancelled animation exits 0" wait_for file_says "$work/status" "exit=0"
check "a cancelled animation says so" bash -c "tmux -L $server capture-pane -p -t play | grep -q 'is cancelled: it has no frames to play'"
check "the terminal is sane after a cancelled one" sane

# 9. Standard output not a terminal: exit 2 with the hint.
"$animc" play examples/talk.anim 2> "$work/err" | cat > "$work/out"
status=${PIPESTATUS[0]}
check "animc play | cat exits 2" test "$status" = 2
check "... with the hint" grep -q "hint: run it in a terminal; \`animc eval\` prints the same values as a table" "$work/err"
check "... and prints nothing" test ! -s "$work/out"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
