#!/usr/bin/env bash
# A night of N objects (default 20,000) listed from a real S3-compatible server (moto, seeded by boto3) and imported by
# the embedded service, against the same N images as local files uploaded to it: wall time, the process's CPU a file
# (the embedded service runs inside it in both) and peak RSS, side by side (issue 35).
#
# Usage: bench/bucket.sh   (BIN defaults to .build/release/assemblyline; the venv of `make` holds moto and boto3)
#        OBJECTS=5000 bench/bucket.sh
set -euo pipefail

cd "$(dirname "$0")/.."
BIN="${BIN:-.build/release/assemblyline}"
PYTHON="${PYTHON:-.venv/bin/python}"
OBJECTS="${OBJECTS:-20000}"
WORK="bench/work/bucket-$OBJECTS"
[ -x "$BIN" ] || { echo "bucket.sh: $BIN is missing; run 'swift build -c release' first" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bucket.sh: GNU time is missing (apt-get install time)" >&2; exit 1; }
rm -rf "$WORK" && mkdir -p "$WORK/in"

# N small PNGs (64×64, each its own grey), as files under in/ and as the bucket's objects under photos/.
python3 - "$WORK" "$OBJECTS" <<'PY'
import os, struct, sys, zlib
work, count = sys.argv[1], int(sys.argv[2])
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
with open(os.path.join(work, "keys.txt"), "w", encoding="utf-8") as keys:
    for index in range(count):
        rows = b"".join(b"\x00" + bytes([(index + y) % 256] * 64) for y in range(64))
        png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 64, 64, 8, 0, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
        name = f"d{index // 1000:03d}/img{index:05d}.png"
        path = os.path.join(work, "in", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as out:
            out.write(png)
        keys.write(f"photos/{name}\t{os.path.abspath(path)}\n")
PY

echo "bucket.sh: seeding moto with $OBJECTS objects (boto3)" >&2
exec 3> >("$PYTHON" Sources/TestSupport/s3_server.py bench-bucket "$WORK/keys.txt" > "$WORK/moto.out" 2> "$WORK/moto.err")
until [ -s "$WORK/moto.out" ]; do sleep 1; done
read -r PORT KEY_ID SECRET < <(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["port"], d["accessKeyID"], d["secret"])' "$WORK/moto.out")
printf '%s' "$SECRET" > "$WORK/s3.secret" && chmod 600 "$WORK/s3.secret"

cat > "$WORK/bucket.yaml" <<YAML
version: 1
name: bench-bucket
inputs:
  s3: {endpoint: "http://127.0.0.1:$PORT", bucket: bench-bucket, prefix: photos/, access_key_id_env: BENCH_KEY_ID,
       secret_access_key_file: s3.secret, template_credentials: bench}
  include: "**/*.png"
resize: {width: 16, height: 16, format: png}
output: {dir: out-bucket, layout: "{relpath}.{ext}"}
state_dir: state-bucket
YAML
cat > "$WORK/files.yaml" <<YAML
version: 1
name: bench-files
inputs: {include: "in/**/*.png", base: in}
resize: {width: 16, height: 16, format: png}
output: {dir: out-files, layout: "{relpath}.{ext}"}
state_dir: state-files
YAML

measure() { # label manifest
    BENCH_KEY_ID="$KEY_ID" /usr/bin/time -v -o "$WORK/time" "$BIN" run "$2" > /dev/null
    local wall rss cpu
    wall=$(sed -n 's/^[[:space:]]*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$WORK/time")
    rss=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$WORK/time")
    cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$WORK/time")
    echo "$1: wall $wall, CPU $cpu s ($(python3 -c "print(f'{$cpu * 1000 / $OBJECTS:.2f}')") ms a file), peak RSS $((rss / 1024)) MB"
}
measure "$OBJECTS objects listed and imported" "$WORK/bucket.yaml"
measure "$OBJECTS local files uploaded" "$WORK/files.yaml"
echo "outputs: $(find "$WORK/out-bucket" -type f | wc -l) from the bucket, $(find "$WORK/out-files" -type f | wc -l) from the files"
exec 3>&-
