#!/usr/bin/env bash
# The language server's latency (issue 24): builds animc in release mode as
# README installs it and bench/run.sh measures it (standard library linked in) and runs bench/lsp.py, writing bench/lsp-results.txt.
#
#   bash bench/lsp.sh [--repeat N]
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-static
bash scripts/release.sh --scratch-path "$scratch" --product animc >&2
bin=$(bash scripts/release.sh --scratch-path "$scratch" --show-bin-path)
{
    echo "# $(date -u +%Y-%m-%dT%H:%MZ); commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'); $(nproc) cores; load average $(cut -d ' ' -f 1-3 /proc/loadavg)"
    python3 bench/lsp.py --animc "$bin/animc" "$@"
} | tee bench/lsp-results.txt
