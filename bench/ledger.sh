#!/usr/bin/env bash
# Times recording a 100,000-file run (2,000 shards of 50) in a fresh ledger, with peak RSS.
# Usage: bench/ledger.sh   (needs `swift build -c release`; BIN defaults to .build/release/ledger-bench)
# Target: under 5 s and 300 MB.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${BIN:-.build/release/ledger-bench}"
REPORT=$(mktemp)
/usr/bin/time -v -o "$REPORT" "$BIN" 100000 50
RSS_KB=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$REPORT")
WALL=$(sed -n 's/^[[:space:]]*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$REPORT")
echo "ledger-bench process: wall $WALL (including building the plan in memory), peak RSS $((RSS_KB / 1024)) MB"
rm -f "$REPORT"
