#!/usr/bin/env bash
# `animc lsp` in real editors' clients (issue 24): pygls's client (PyPI; its
# lsprotocol types validate every message), a raw session over pipes (only
# framed messages on standard output, malformed input answered) and
# Neovim's built-in client headless (Debian's neovim): diagnostics at their
# exact ranges, hover, completion, go to definition, the fix clears them.
# Then the VS Code TextMate grammar: compiled with Oniguruma (PyPI's
# onigurumacffi), highlighting every example with no unmatched region.
#
#   bash checks/lsp.sh
#
# Installs what it needs when it is missing: Debian's neovim (apt-get, as
# root) and, in the Python virtual environment checks/.venv, pygls and
# onigurumacffi. Prints `N passed, M failed`; exits 1 on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=checks/.venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import pygls.lsp.client, lsprotocol, onigurumacffi" 2>/dev/null; then
  "$venv/bin/pip" install --quiet --disable-pip-version-check pygls onigurumacffi
fi
if ! command -v nvim > /dev/null; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "checks/lsp.sh: neovim is missing; install it with: apt-get install -y neovim" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq neovim > /dev/null
fi

swift build > /dev/null
status=0
clients=$("$venv/bin/python" checks/lsp_check.py --animc .build/debug/animc) || status=1
grammar=$("$venv/bin/python" checks/tmgrammar_check.py --animc .build/debug/animc) || status=1
printf '%s\n' "$clients" | grep -v ' passed, ' || true
printf '%s\n' "$grammar" | grep -v ' passed, ' || true
# One total for both.
printf '%s\n' "$clients" "$grammar" | awk '/^[0-9]+ passed, [0-9]+ failed$/ { p += $1; f += $3 } END { print p " passed, " f " failed" }'
exit $status
