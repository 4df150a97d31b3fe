#!/usr/bin/env bash
# The language server's latency (issue 24): builds animc in release mode (the
# scratch path bench/run.sh uses) and runs bench/lsp.py, writing bench/lsp-results.txt.
#
#   bash bench/lsp.sh [--repeat N]
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-bench
swift build -c release --scratch-path "$scratch" --product animc >&2
bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path)
{
    echo "# $(date -u +%Y-%m-%dT%H:%MZ); commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'); $(nproc) cores; load average $(cut -d ' ' -f 1-3 /proc/loadavg)"
    python3 bench/lsp.py --animc "$bin/animc" "$@"
} | tee bench/lsp-results.txt
