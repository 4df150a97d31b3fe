# Sourced by the checks that drive Chromium (web.sh, serve.sh): installs
# Debian's chromium-headless-shell when no Chromium is there (web_check.py's
# find_chromium decides).
if ! python3 -c 'import sys; sys.path.insert(0, "checks"); from web_check import find_chromium; sys.exit(find_chromium() is None)'; then
  echo "== installing chromium-headless-shell"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium-headless-shell >/dev/null
fi
