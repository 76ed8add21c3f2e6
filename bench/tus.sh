#!/usr/bin/env bash
# The large-file benchmark of issue 6: `assemblyline run` with `upload.mode: tus` against `upload.mode:
# multipart`, the same file, the same `assemblyline serve` on loopback (started once here, rate limits off).
#   throughput  one file of SIZE_MIB (1 GiB) of /dev/urandom bytes; multipart, then tus at each of CHUNKS
#               (8MiB, the default, and 64MiB), and at the first without checksums, RUNS times each, interleaved; wall time of the whole
#               `assemblyline run` (creation, upload, polls every 100 ms, ledger), medians, MB/s, tus / multipart
#   memory      one file of BIG_MIB (2 GiB): peak RSS (/usr/bin/time, the assemblyline process only; the
#               service is a process of its own) of one run per contender
#   tuspy       (informational, TUSPY=0 skips it) the same 1 GiB by tuspy 1.1.0 at the first chunk size,
#               without and with Upload-Checksum (bench/tus_tuspy.py): what the checksum costs on its own
# The manifest keeps nothing (`":original": {robot: /upload/handle, result: false}`: the service lists a
# step no other step uses among the results unless `result: false` hides it), so only the upload is
# measured; each run must exit 0 with 0 results and no output directory. A fresh state directory per run;
# the service's stored copy is deleted between runs, outside the timed part. When perf works (PROFILE=0
# skips it), one more tus run of the first chunk size (untimed) is profiled, client and service, and
# their CPU split by bench/tus_profile.py (checksums, ledger, HTTP, file writes, the service's MD5).
#
# Usage: bench/tus.sh   (BIN defaults to .build/release/assemblyline)
#        SIZE_MIB=1024 BIG_MIB=2048 RUNS=3 CHUNKS="8MiB 64MiB" TUSPY=1 PROFILE=1 bench/tus.sh
# Targets (issue 6): tus within 1.2x of multipart's wall time; a 2 GiB file over tus under 64 MB peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BIN="${BIN:-.build/release/assemblyline}"
SIZE_MIB="${SIZE_MIB:-1024}"
BIG_MIB="${BIG_MIB:-2048}"
RUNS="${RUNS:-3}"
CHUNKS="${CHUNKS:-8MiB 64MiB}"
PROFILE="${PROFILE:-1}"
TUSPY="${TUSPY:-1}"
PYTHON="$ROOT/.venv/bin/python"

[ -x "$BIN" ] || { echo "tus.sh: $BIN is missing; run 'swift build -c release' first" >&2; exit 1; }
for tool in openssl /usr/bin/time; do
    command -v "$tool" > /dev/null || { echo "tus.sh: $tool is missing (apt-get install openssl time)" >&2; exit 1; }
done
# The inputs, the service's stored copy and its tus part file of the largest run, with 1 GiB to spare.
NEEDED_MIB=$((SIZE_MIB + 3 * BIG_MIB + 1024))
FREE_MIB=$(df -m --output=avail /tmp | tail -1 | tr -d ' ')
[ "$FREE_MIB" -ge "$NEEDED_MIB" ] || { echo "tus.sh: /tmp has $FREE_MIB MiB free, $NEEDED_MIB needed" >&2; exit 1; }

WORK=$(mktemp -d /tmp/tusbench.XXXXXX)
SERVICE=""
cleanup() {
    [ -z "$SERVICE" ] || { kill "$SERVICE" 2> /dev/null; wait "$SERVICE" 2> /dev/null || true; }
    rm -rf "$WORK"
}
trap cleanup EXIT

export BENCH_KEY=bench-key
BENCH_SECRET=$(openssl rand -hex 24)
export BENCH_SECRET
"$BIN" serve --listen 127.0.0.1:0 --data-dir "$WORK/data" --key "$BENCH_KEY" --secret-env BENCH_SECRET \
    --workers 1 --creations-per-minute 0 --status-per-second 0 > "$WORK/serve.out" 2> "$WORK/serve.err" &
SERVICE=$!
for _ in $(seq 100); do grep -q '^listening on' "$WORK/serve.out" 2> /dev/null && break; sleep 0.1; done
BENCH_URL=$(sed -n 's/^listening on //p' "$WORK/serve.out" | head -1)
[ -n "$BENCH_URL" ] || { echo "tus.sh: the service did not start: $(cat "$WORK/serve.err")" >&2; exit 1; }
export BENCH_URL

# Writes the manifest of contender $2 (multipart, tus-<chunk size>, or tus-<chunk size>-nosum without
# Upload-Checksum) for the inputs folder $1.
write_manifest() {
    local upload="{mode: multipart}"
    case $2 in
        tus-*-nosum) local chunk=${2#tus-}; upload="{mode: tus, chunk_size: ${chunk%-nosum}, checksums: false}" ;;
        tus-*) upload="{mode: tus, chunk_size: ${2#tus-}}" ;;
    esac
    cat > "$WORK/$1-$2.yaml" <<YAML
version: 1
name: bench-tus
endpoint: \${BENCH_URL}
auth: {key: "\${BENCH_KEY}"}
signer: {kind: local, secret_env: BENCH_SECRET}
inputs: {include: "$1/*.bin", base: $1}
steps:
  ":original": {robot: /upload/handle, result: false}
upload: $upload
poll: {interval: 100ms, max_interval: 100ms}
output: {dir: "\${BENCH_OUT}"}
YAML
}

# Runs contender $2 on inputs $1 (run label $3); appends "inputs contender run wall_s rss_MB cpu_s" to figures.
measure() {
    local run="$WORK/runs/$1-$2-$3" start end rss user sys
    mkdir -p "$run"
    export BENCH_OUT="$run/out"
    case $2 in
        tuspy) COMMAND=("$PYTHON" "$ROOT/bench/tus_tuspy.py" "$BENCH_URL" "$BENCH_KEY" "$WORK/$1/$1.bin" "$TUSPY_CHUNK") ;;
        tuspy-sha1) COMMAND=("$PYTHON" "$ROOT/bench/tus_tuspy.py" --checksum "$BENCH_URL" "$BENCH_KEY" "$WORK/$1/$1.bin" "$TUSPY_CHUNK") ;;
        *) COMMAND=("$BIN" run "$WORK/$1-$2.yaml" --state-dir "$run/state") ;;
    esac
    start=$(date +%s%N)
    if ! /usr/bin/time -f '%M %U %S' -o "$run/time" "${COMMAND[@]}" > "$run/log" 2>&1; then
        echo "tus.sh: $2 run $3 on $1 failed; its output:" >&2
        tail -20 "$run/log" >&2
        exit 1
    fi
    end=$(date +%s%N)
    if ! grep -q 'completed (0 results)' "$run/log" || [ -e "$run/out" ]; then
        echo "tus.sh: $2 run $3 on $1 did not end with 0 results and no output:" >&2
        cat "$run/log" >&2
        exit 1
    fi
    read -r rss user sys < <(tail -1 "$run/time")
    awk -v i="$1" -v c="$2" -v r="$3" -v s="$start" -v e="$end" -v m="$rss" -v u="$user" -v y="$sys" \
        'BEGIN { printf "%-6s %-12s %3s %8.3f %7d %7.2f\n", i, c, r, (e - s) / 1e9, m / 1024, u + y }' | tee -a "$WORK/figures.txt"
    find "$WORK/data/assemblies" -path '*/files/*' -type f -delete
    rm -rf "$run"
}

CONTENDERS="multipart"
for chunk in $CHUNKS; do CONTENDERS="$CONTENDERS tus-$chunk"; done
FIRST_CHUNK="${CHUNKS%% *}"
CONTENDERS="$CONTENDERS tus-$FIRST_CHUNK-nosum"
LARGE_CONTENDERS="$CONTENDERS"
if [ "$TUSPY" = 1 ]; then
    [ -x "$PYTHON" ] || make -s .venv/installed
    case $FIRST_CHUNK in *[0-9]MiB) ;; *) echo "tus.sh: tuspy needs the first of CHUNKS in MiB (8MiB), not $FIRST_CHUNK" >&2; exit 64 ;; esac
    TUSPY_CHUNK=$(( ${FIRST_CHUNK%MiB} << 20 ))
    LARGE_CONTENDERS="$LARGE_CONTENDERS tuspy tuspy-sha1"
fi
mkdir -p "$WORK/large" "$WORK/huge"
dd if=/dev/urandom of="$WORK/large/large.bin" bs=1M count="$SIZE_MIB" status=none
for name in $CONTENDERS; do write_manifest large "$name"; write_manifest huge "$name"; done

echo "tus: one file of $SIZE_MIB MiB, contenders $LARGE_CONTENDERS, $RUNS runs each, interleaved; then one file of $BIG_MIB MiB once each of $CONTENDERS (peak RSS)"
printf '%-6s %-12s %3s %8s %7s %7s\n' inputs contender run wall_s rss_MB cpu_s
for run in $(seq "$RUNS"); do
    for name in $LARGE_CONTENDERS; do measure large "$name" "$run"; done
done

# The two whole-file hashes a tus upload adds on its critical path, timed alone on the same (cached) file:
# the client's SHA-1 of each chunk before its PATCH, and the service's MD5 of the complete upload, which
# it reads back from disk before it answers the last PATCH (multipart computes the MD5 as the bytes arrive).
for digest in sha1 md5; do
    start=$(date +%s%N)
    openssl dgst "-$digest" "$WORK/large/large.bin" > /dev/null
    end=$(date +%s%N)
    awk -v d="$digest" -v s="$start" -v e="$end" -v m="$SIZE_MIB" \
        'BEGIN { printf "openssl dgst -%s of the %d MiB file: %.2f s\n", d, m, (e - s) / 1e9 }'
done

if [ "$PROFILE" = 1 ] && perf record -q -o /dev/null -- true 2> /dev/null; then
    export BENCH_OUT="$WORK/profile/out"
    mkdir -p "$WORK/profile"
    perf record -q -F 999 --call-graph dwarf,16384 -p "$SERVICE" -o "$WORK/profile/service.data" 2> /dev/null &
    PERF=$!
    sleep 0.5
    perf record -q -F 999 --call-graph dwarf,16384 -o "$WORK/profile/client.data" -- \
        "$BIN" run "$WORK/large-tus-$FIRST_CHUNK.yaml" --state-dir "$WORK/profile/state" > "$WORK/profile/log" 2>&1
    kill -INT "$PERF"
    wait "$PERF" || true
    for side in client service; do
        perf script -F period,ip,sym,dso -i "$WORK/profile/$side.data" 2> /dev/null \
            | python3 "$ROOT/bench/tus_profile.py" "$side" "$SIZE_MIB"
    done
    rm -rf "$WORK/profile"
    find "$WORK/data/assemblies" -path '*/files/*' -type f -delete
elif [ "$PROFILE" = 1 ]; then
    echo "tus.sh: perf is missing or not allowed; no CPU profile" >&2
fi

rm "$WORK/large/large.bin"
dd if=/dev/urandom of="$WORK/huge/huge.bin" bs=1M count="$BIG_MIB" status=none
for name in $CONTENDERS; do measure huge "$name" 1; done

python3 - "$WORK/figures.txt" "$SIZE_MIB" "$BIG_MIB" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
sizes = {"large": int(sys.argv[2]) << 20, "huge": int(sys.argv[3]) << 20}


def names(inputs):
    return list(dict.fromkeys(row[1] for row in rows if row[0] == inputs))


def median(inputs, name, index):
    return statistics.median(float(row[index]) for row in rows if row[0] == inputs and row[1] == name)


for name in names("large"):
    wall = median("large", name, 3)
    print(f"median {name:<12} {sizes['large'] >> 20} MiB: wall {wall:.2f} s, {sizes['large'] / wall / 1e6:.0f} MB/s, "
          f"peak RSS {median('large', name, 4):.0f} MB, CPU {median('large', name, 5):.2f} s")
multipart = median("large", "multipart", 3)
for name in names("large")[1:]:
    target = " (target <= 1.2x)" if name.startswith("tus-") else ""
    print(f"{name} / multipart: {median('large', name, 3) / multipart:.2f}x{target}")
if "tuspy-sha1" in names("large"):
    print(f"Upload-Checksum (tuspy-sha1 - tuspy): {median('large', 'tuspy-sha1', 3) - median('large', 'tuspy', 3):+.2f} s")
for name in names("huge"):
    wall = median("huge", name, 3)
    print(f"{name:<12} {sizes['huge'] >> 20} MiB: peak RSS {median('huge', name, 4):.0f} MB (tus target < 64 MB), "
          f"wall {wall:.2f} s, {sizes['huge'] / wall / 1e6:.0f} MB/s, CPU {median('huge', name, 5):.2f} s")
PY
