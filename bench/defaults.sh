#!/usr/bin/env bash
# The benchmark of issue 13: its batch (400 small files in 40 Assemblies of 10, 4 in flight, only
# `:original` kept) through `assemblyline run` with the manifest's defaults for `poll` and `limits`,
# beside the 100 ms-polling curl client and pytransloadit 1.0.4 with its defaults, on the same service
# with its rate limits off (bench/pipeline.sh with DEFAULTS=1), and the status requests per Assembly.
# Targets: assemblyline <= 1.1x curl, >= 5x faster than the SDK, <= 2 status requests an Assembly.
set -euo pipefail
cd "$(dirname "$0")/.."
FILES=400 SHARD_FILES=10 CONCURRENCY=4 POLL_MS=100 DEFAULTS=1 RUNS="${RUNS:-3}" exec bench/pipeline.sh
