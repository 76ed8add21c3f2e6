#!/usr/bin/env bash
# The HTML report benchmark of issue 24: a 10,000-shard run's `report --format html`, under 2 s into a file under 5 MB;
# then `report --history` over NIGHTS nights of that manifest (the big night and all-skipped ones after it).
#
# Runs FILES tiny files (50,000 by default) in shards of SHARD_FILES (5: 10,000 shards) through `assemblyline serve`
# once (rate limits off, only `:original` kept), then times `report --format html --output` of that run three
# times (wall time, peak RSS, the file's size). The run is kept in bench/work/html for the next invocation;
# delete the directory to run it again.
#
# Usage: bench/html.sh   (BIN defaults to .build/release/assemblyline)
#        FILES=50000 SHARD_FILES=5 NIGHTS=30 bench/html.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${BIN:-.build/release/assemblyline}"
FILES="${FILES:-50000}"
SHARD_FILES="${SHARD_FILES:-5}"
NIGHTS="${NIGHTS:-30}"
CONCURRENCY="${CONCURRENCY:-4}"
WORKERS="${WORKERS:-4}"
WORK="$PWD/bench/work/html"
MANIFEST_NAME=bench-html

[ -x "$BIN" ] || { echo "html.sh: $BIN is missing; run 'make release' first" >&2; exit 1; }
mkdir -p "$WORK"
export BENCH_KEY=bench-key
BENCH_SECRET=$(openssl rand -hex 24)
export BENCH_SECRET
. bench/local-service.bash
. bench/tiny-files.bash

RUN="$WORK/run-$FILES-$SHARD_FILES"
if [ ! -s "$RUN/state/ledger.sqlite" ]; then
    rm -rf "$RUN"
    mkdir -p "$RUN"
    make_inputs "$WORK/inputs-$FILES" "$FILES"
    manifest "$WORK/inputs-$FILES" "$RUN/out" > "$RUN/manifest.yaml"
    start_service "$RUN/data"
    timed "$BIN" run "$RUN/manifest.yaml" --state-dir "$RUN/state" --quiet
    stop_service
    echo "the run of $FILES files in shards of $SHARD_FILES: $WALL s"
fi
ID=$("$BIN" runs --state-dir "$RUN/state" --limit 1000 --json | python3 -c "import json, sys; print(json.load(sys.stdin)[-1][\"id\"])")
SHARDS=$("$BIN" runs --state-dir "$RUN/state" --limit 1000 --json | python3 -c "import json, sys; print(json.load(sys.stdin)[-1][\"shards\"])")
echo "html: run $ID, $SHARDS shards, $(nproc) cores, $(date -u +%Y-%m-%d)"
for round in 1 2 3; do
    timed "$BIN" report "$ID" --state-dir "$RUN/state" --format html --output "$WORK/report.html"
    echo "report --format html, round $round: $WALL s, peak RSS $RSS MB, $(($(stat -c %s "$WORK/report.html") / 1024)) KB"
done
RUNS=$("$BIN" runs --state-dir "$RUN/state" --limit 1000 --json | python3 -c "import json, sys; print(len(json.load(sys.stdin)))")
if [ "$RUNS" -lt "$NIGHTS" ]; then
    start_service "$RUN/data"
    for _ in $(seq "$RUNS" $((NIGHTS - 1))); do "$BIN" run "$RUN/manifest.yaml" --state-dir "$RUN/state" --quiet; done
    stop_service
fi
for round in 1 2 3; do
    timed "$BIN" report --history --state-dir "$RUN/state" --format html --output "$WORK/history.html"
    echo "report --history --format html ($NIGHTS nights), round $round: $WALL s, peak RSS $RSS MB, $(($(stat -c %s "$WORK/history.html") / 1024)) KB"
    timed "$BIN" report --history --state-dir "$RUN/state" --format json
    echo "report --history --format json ($NIGHTS nights), round $round: $WALL s, peak RSS $RSS MB, $(($(stat -c %s "$WORK/log") / 1024)) KB"
done
