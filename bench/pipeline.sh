#!/usr/bin/env bash
# The pipeline benchmark of issue 5: the same small PNGs (2,000 by default, 10-30 KB, generated here, no
# third-party media) through `assemblyline serve` with only `:original` kept (`result: true`), by three
# contenders (and one informational variant) with the same files per Assembly, the same Assemblies in
# flight and the same poll interval:
#   assemblyline  `assemblyline run` of a manifest, a fresh state directory each time (signs, records
#                 every step in its SQLite ledger, verifies each download's size and MD5, fsyncs it)
#   curl          the floor: bench/pipeline_curl.sh per shard under `xargs -P` (openssl signs, curl creates
#                 the Assembly with the files, polls, downloads)
#   python-sdk    pytransloadit 1.0.4 in a ThreadPoolExecutor (bench/pipeline_sdk.py); it polls every 1 s,
#                 its own fixed interval
#   sdk-poll      the same with the SDK's sleep replaced by POLL_MS (informational, no target: how much of
#                 the SDK's time is its poll interval)
# Each contender runs RUNS times, interleaved, each run against a fresh service (own data directory,
# rate limits off). Prints each run's wall time, peak RSS and CPU seconds (the contender's process tree;
# the service's separately), then medians, ratios and the orchestration overhead per file
# ((assemblyline - curl) / files). Every run's downloads are counted and summed outside the timed part.
# When perf works, one more assemblyline run (untimed) is profiled and its CPU split by bench/pipeline_profile.py
# (ledger, signing, MD5, fsync, HTTP, JSON...): the direct measure of the orchestration's own cost.
#
# With DEFAULTS=1 the manifest keeps its `poll` and `limits` defaults (issue 13: what an operator who
# changes nothing gets); the service's own rate limits stay off either way. Every run also prints the
# status requests per Assembly the service answered (from `serve`'s closing line).
#
# Usage: bench/pipeline.sh   (BIN defaults to .build/release/assemblyline; runs `make .venv/installed` for the SDK)
#        FILES=2000 SHARD_FILES=20 CONCURRENCY=4 POLL_MS=100 WORKERS=4 RUNS=3 bench/pipeline.sh
# Targets (issue 5): assemblyline within 1.25x of curl, at least 3x faster than the SDK, overhead < 2 ms a file.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BIN="${BIN:-.build/release/assemblyline}"
PYTHON="$ROOT/.venv/bin/python"
FILES="${FILES:-2000}"
SHARD_FILES="${SHARD_FILES:-20}"
CONCURRENCY="${CONCURRENCY:-4}"
POLL_MS="${POLL_MS:-100}"
WORKERS="${WORKERS:-4}"
RUNS="${RUNS:-3}"
DEFAULTS="${DEFAULTS:-0}"
WORK="$ROOT/bench/work/pipeline"

[ -x "$BIN" ] || { echo "pipeline.sh: $BIN is missing; run 'swift build -c release' first" >&2; exit 1; }
[ -x "$PYTHON" ] || make -s .venv/installed
for tool in curl openssl /usr/bin/time; do
    command -v "$tool" > /dev/null || { echo "pipeline.sh: $tool is missing (apt-get install curl openssl time)" >&2; exit 1; }
done

# The images: FILES noisy PNGs (so they do not compress below 10 KB) of 60-100 px a side, in folders of 100.
mkdir -p "$WORK"
if [ "$(cat "$WORK/images.complete" 2>/dev/null)" != "$FILES" ]; then
    echo "pipeline.sh: generating $FILES images under $WORK/images" >&2
    rm -rf "$WORK/images" "$WORK/images.complete"
    python3 - "$WORK/images" "$FILES" <<'PY'
import os, random, struct, sys, zlib
root, count = sys.argv[1], int(sys.argv[2])

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

for index in range(count):
    rng = random.Random(index)
    width, height = rng.randint(60, 100), rng.randint(60, 100)
    rows = b"".join(b"\x00" + rng.randbytes(width * 3) for _ in range(height))
    data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b""))
    folder = os.path.join(root, "d%02d" % (index // 100))
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "img-%05d.png" % index), "wb") as out:
        out.write(data)
PY
    echo "$FILES" > "$WORK/images.complete"
fi
INPUT_BYTES=$(find "$WORK/images" -type f -name '*.png' -printf '%s\n' | awk '{ total += $1 } END { print total }')

# The same shards for curl and the SDK as the manifest's `shards.files` gives assemblyline.
rm -rf "$WORK/shards" "$WORK/runs" && mkdir -p "$WORK/shards" "$WORK/runs"
find "$WORK/images" -type f -name '*.png' | sort > "$WORK/files.txt"
split -l "$SHARD_FILES" -d -a 4 --additional-suffix=.list "$WORK/files.txt" "$WORK/shards/"
find "$WORK/shards" -name '*.list' | sort > "$WORK/shards.txt"
SHARDS=$(wc -l < "$WORK/shards.txt")

cat > "$WORK/manifest.yaml" <<YAML
version: 1
name: bench-pipeline
endpoint: \${BENCH_URL}
auth: {key: "\${BENCH_KEY}"}
signer: {kind: local, secret_env: BENCH_SECRET}
inputs: {include: "images/**/*.png", base: images}
steps:
  ":original": {robot: /upload/handle, result: true}
shards: {files: $SHARD_FILES}
concurrency: {assemblies: $CONCURRENCY, uploads: $CONCURRENCY, downloads: $CONCURRENCY}
output: {dir: "\${BENCH_OUT}"}
YAML
if [ "$DEFAULTS" != 1 ]; then
    cat >> "$WORK/manifest.yaml" <<YAML
poll: {interval: ${POLL_MS}ms, max_interval: ${POLL_MS}ms}
limits: {creations_per_minute: 100000, status_per_second: 100}
YAML
fi

export BENCH_KEY=bench-key
BENCH_SECRET=$(openssl rand -hex 24)
export BENCH_SECRET
BENCH_POLL=$(awk -v ms="$POLL_MS" 'BEGIN { printf "%.3f", ms / 1000 }')
export BENCH_POLL
. bench/local-service.bash

echo "pipeline: $FILES files ($((INPUT_BYTES / FILES / 1024)) KiB average), $SHARDS Assemblies of $SHARD_FILES, $CONCURRENCY in flight, poll ${POLL_MS}ms, service --workers $WORKERS"
printf '%-13s %4s %9s %9s %9s %12s %11s\n' contender run wall_s rss_MB cpu_s service_cpu_s status_per_a
for run in $(seq "$RUNS"); do
    for name in assemblyline curl python-sdk sdk-poll; do
        RUN="$WORK/runs/$name-$run"
        mkdir -p "$RUN"
        export BENCH_OUT="$RUN/out"
        start_service "$RUN/data"
        start=$(date +%s%N)
        case $name in
            assemblyline) COMMAND=("$BIN" run "$WORK/manifest.yaml" --state-dir "$RUN/state") ;;
            curl) COMMAND=(xargs -P "$CONCURRENCY" -n 1 -a "$WORK/shards.txt" "$ROOT/bench/pipeline_curl.sh") ;;
            python-sdk) COMMAND=("$PYTHON" "$ROOT/bench/pipeline_sdk.py" "$BENCH_URL" "$BENCH_KEY" "$BENCH_OUT" "$CONCURRENCY" "$WORK"/shards/*.list) ;;
            sdk-poll) COMMAND=("$PYTHON" "$ROOT/bench/pipeline_sdk.py" --poll "$BENCH_POLL" "$BENCH_URL" "$BENCH_KEY" "$BENCH_OUT" "$CONCURRENCY" "$WORK"/shards/*.list) ;;
        esac
        if ! /usr/bin/time -f '%M %U %S' -o "$RUN/time" "${COMMAND[@]}" > "$RUN/log" 2>&1; then
            echo "pipeline.sh: $name run $run failed; its output:" >&2
            tail -20 "$RUN/log" >&2
            exit 1
        fi
        end=$(date +%s%N)
        stop_service
        service_cpu=$SERVICE_CPU
        status_per_assembly=$(sed -n 's/^serve: requests answered: //p' "$RUN/data.err" | tr ',' '\n' |
            awk '$1 == "create" { c = $2 } $1 == "status" { s = $2 } END { printf "%.2f", (c ? s / c : 0) }')
        read -r rss user sys < <(tail -1 "$RUN/time")
        count=$(find "$RUN/out" -type f | wc -l)
        bytes=$(find "$RUN/out" -type f -printf '%s\n' | awk '{ total += $1 } END { print total + 0 }')
        if [ "$count" -ne "$FILES" ] || [ "$bytes" -ne "$INPUT_BYTES" ]; then
            echo "pipeline.sh: $name run $run left $count files of $bytes bytes in $RUN/out, expected $FILES of $INPUT_BYTES" >&2
            exit 1
        fi
        wall=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", (e - s) / 1e9 }')
        cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
        printf '%-13s %4s %9s %9s %9s %12s %11s\n' "$name" "$run" "$wall" "$((rss / 1024))" "$cpu" "$service_cpu" "$status_per_assembly" |
            tee -a "$WORK/runs/figures.txt"
        rm -rf "$RUN/data" "$RUN/out"
    done
done

python3 - "$WORK/runs/figures.txt" "$FILES" "$POLL_MS" "$DEFAULTS" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
files = int(sys.argv[2])
median = {name: {field: statistics.median(float(row[index]) for row in rows if row[0] == name)
                 for field, index in (("wall", 2), ("rss", 3), ("cpu", 4), ("service", 5), ("status", 6))}
          for name in ("assemblyline", "curl", "python-sdk", "sdk-poll")}
for name, figures in median.items():
    print(f"median {name:<13} wall {figures['wall']:.2f} s, peak RSS {figures['rss']:.0f} MB, "
          f"CPU {figures['cpu']:.2f} s ({figures['cpu'] / files * 1000:.2f} ms a file), service CPU {figures['service']:.2f} s, "
          f"{figures['status']:.2f} status requests an Assembly")
al, floor, sdk = (median[name]["wall"] for name in ("assemblyline", "curl", "python-sdk"))
if sys.argv[4] == "1":
    print(f"assemblyline (manifest defaults) / curl: {al / floor:.2f}x (target <= 1.1x); python-sdk / assemblyline: {sdk / al:.2f}x (target >= 5x); "
          f"{median['assemblyline']['status']:.2f} status requests an Assembly (target <= 2)")
else:
    print(f"assemblyline / curl: {al / floor:.2f}x (target <= 1.25x); python-sdk / assemblyline: {sdk / al:.2f}x (target >= 3x)")
print(f"orchestration overhead: {(al - floor) / files * 1000:.2f} ms a file (wall, assemblyline - curl; target < 2 ms)")
print(f"sdk-poll / assemblyline: {median['sdk-poll']['wall'] / al:.2f}x (the SDK polling every {sys.argv[3]} ms; no target)")
PY

if perf record -q -o /dev/null -- true 2> /dev/null; then
    RUN="$WORK/runs/profile"
    mkdir -p "$RUN"
    export BENCH_OUT="$RUN/out"
    start_service "$RUN/data"
    perf record -q -F 1000 --call-graph dwarf,16384 -o "$RUN/perf.data" -- \
        "$BIN" run "$WORK/manifest.yaml" --state-dir "$RUN/state" > "$RUN/log" 2>&1
    stop_service
    perf script -F period,ip,sym,dso -i "$RUN/perf.data" 2> /dev/null | python3 "$ROOT/bench/pipeline_profile.py" "$FILES"
    rm -rf "$RUN"
else
    echo "pipeline.sh: perf is missing or not allowed; no CPU profile of assemblyline" >&2
fi
