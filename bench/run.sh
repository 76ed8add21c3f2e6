#!/usr/bin/env bash
# Runs every benchmark of bench/ against the release build; record the figures in bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(lscpu | sed -n 's/^Model name:[[:space:]]*//p'), $(date -u +%Y-%m-%d)"
bench/plan.sh
DIRS=1000 bench/plan.sh
bench/ledger.sh
bench/listing.sh
bench/bucket.sh
bench/service.sh
bench/stored.py
bench/pipeline.sh
bench/scale.sh
bench/html.sh
bench/defaults.sh
bench/tus.sh
bench/fuzz.py
bench/soak.py
