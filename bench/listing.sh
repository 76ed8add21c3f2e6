#!/usr/bin/env bash
# Times `assemblyline plan` of a bucket of KEYS keys (default 100,000 and 1,000,000) listed from a page
# generator (bench/s3_pages.py: moto cannot be seeded with a million objects): once with every key
# planned, and once with a glob that takes one key, which is the listing alone. The listing holds one
# page at a time, so its peak RSS must not grow with the keys; the plan holds what a plan of files does.
#
# Usage: bench/listing.sh   (BIN defaults to .build/release/assemblyline; build it first)
#        KEYS="100000 1000000" bench/listing.sh
set -euo pipefail

cd "$(dirname "$0")/.."
BIN="${BIN:-.build/release/assemblyline}"
WORK=bench/work/listing
KEYS="${KEYS:-100000 1000000}"
mkdir -p "$WORK"
[ -x "$BIN" ] || { echo "listing.sh: $BIN is missing; run 'swift build -c release' first" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "listing.sh: GNU time is missing (apt-get install time)" >&2; exit 1; }

measure() { # label manifest
    /usr/bin/time -v -o "$WORK/time" "$BIN" plan "$2" > /dev/null
    local wall rss cpu
    wall=$(sed -n 's/^[[:space:]]*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$WORK/time")
    rss=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$WORK/time")
    cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$WORK/time")
    echo "$1: wall $wall, CPU $cpu s, peak RSS $((rss / 1024)) MB"
}

for keys in $KEYS; do
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    python3 bench/s3_pages.py "$port" "$keys" > "$WORK/server.out" &
    server=$!
    trap 'kill $server 2>/dev/null || true' EXIT
    until grep -q ready "$WORK/server.out" 2>/dev/null; do sleep 0.1; done
    for include in '"**/*.jpg"' '"d0000/img0000.jpg"'; do
        cat > "$WORK/plan.yaml" <<YAML
version: 1
name: bench-listing
endpoint: embedded
signer: {kind: embedded}
inputs:
  s3: {endpoint: "http://127.0.0.1:$port", bucket: bench, prefix: tree/, access_key_id_env: BENCH_KEY_ID,
       secret_access_key_env: BENCH_SECRET, template_credentials: bench}
  include: $include
resize: {width: 100, height: 100}
shards: {files: 50}
YAML
        label="plan of a $keys-key bucket, $([ "$include" = '"**/*.jpg"' ] && echo "every key planned" || echo "one key planned (the listing)")"
        BENCH_KEY_ID=bench BENCH_SECRET=bench-secret measure "$label" "$WORK/plan.yaml"
    done
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
done
