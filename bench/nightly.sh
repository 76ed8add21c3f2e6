#!/usr/bin/env bash
# A nightly job's ledger over many nights: the 100,000 small files of bench/plan.sh's tree, kept as
# `:original` on the embedded service, run once in full and then NIGHTS more times (every file
# skipped as done, its outputs checked on disk). Prints each night's wall time, peak RSS and the
# ledger's size, so that what a night costs after months of nights shows.
#
# Usage: bench/nightly.sh   (BIN defaults to .build/release/assemblyline; NIGHTS=30, DIRS=100)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${BIN:-.build/release/assemblyline}"
NIGHTS="${NIGHTS:-30}"
DIRS="${DIRS:-100}"
WORK=bench/work/nightly
[ -x "$BIN" ] || { echo "nightly.sh: $BIN is missing; run 'make release' first" >&2; exit 1; }
[ -f "bench/work/tree-$DIRS/.complete" ] || DIRS=$DIRS bench/plan.sh > /dev/null

rm -rf "$WORK" && mkdir -p "$WORK"
cat > "$WORK/nightly.yaml" <<YAML
version: 1
name: bench-nightly
inputs: {include: ["../tree-$DIRS/**/*.jpg"], base: ../tree-$DIRS}
steps:
  ":original": {robot: /upload/handle, result: true}
shards: {files: 50}
concurrency: {assemblies: 8, uploads: 8, downloads: 8}
state_dir: state
output: {dir: out}
YAML

printf '%-6s %9s %8s %10s\n' night wall_s rss_MB ledger_MB
for night in $(seq 0 "$NIGHTS"); do
    /usr/bin/time -f '%e %M' -o "$WORK/time" "$BIN" run "$WORK/nightly.yaml" --quiet > "$WORK/log" 2>&1 \
        || { echo "nightly.sh: night $night failed:" >&2; tail -5 "$WORK/log" >&2; exit 1; }
    read -r wall rss < "$WORK/time"
    ledger=$(du -m "$WORK/state/ledger.sqlite" | cut -f1)
    printf '%-6s %9s %8s %10s\n' "$night" "$wall" "$((rss / 1024))" "$ledger"
done
