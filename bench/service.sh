#!/usr/bin/env bash
# Benchmarks of the local service (`assemblyline serve`) on loopback:
#   status GETs per second (wrk), multipart and tus upload MB/s (curl), the service's peak RSS while it
#   receives a 2 GiB upload, and images resized per second by the worker pool.
# Usage: bench/service.sh   (BIN defaults to .build/release/assemblyline; installs wrk if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${BIN:-.build/release/assemblyline}"
WORK=bench/work/service
rm -rf "$WORK" && mkdir -p "$WORK"
command -v wrk >/dev/null || { SUDO=$([ "$(id -u)" -eq 0 ] || echo sudo); $SUDO apt-get install -y -qq wrk >/dev/null; }

"$BIN" serve --listen 127.0.0.1:0 --data-dir "$WORK/data" --no-signature --key bench \
    --status-per-second 1000000 --creations-per-minute 1000000 > "$WORK/serve.out" 2> "$WORK/serve.err" &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q '^listening on' "$WORK/serve.out" 2>/dev/null && break; sleep 0.1; done
URL=$(sed -n 's/^listening on //p' "$WORK/serve.out" | head -1)
PARAMS='{"auth":{"key":"bench"},"steps":{":original":{"robot":"/upload/handle"}}}'
field() { python3 -c "import json,sys; print(json.load(sys.stdin)[sys.argv[1]])" "$1"; }
mb_per_s() { python3 -c "import sys; print('%.0f MB/s' % (int(sys.argv[1]) / float(sys.argv[2]) / 1e6))" "$1" "$2"; }

# Status GETs per second on one Assembly.
python3 scripts/make-sample-images.py "$WORK/images" >/dev/null
ASSEMBLY=$(curl -sf -F "params=$PARAMS" -F "file=@$WORK/images/squares/sample-02.png" "$URL/assemblies" | field assembly_ssl_url)
echo "status GETs: $(wrk -t2 -c16 -d5s "$ASSEMBLY" | sed -n 's/^Requests\/sec:[[:space:]]*//p') requests/s (wrk, 2 threads, 16 connections, 5 s)"

# Multipart and tus uploads of 1 GiB.
head -c $((1 << 30)) /dev/urandom > "$WORK/big.bin"
SIZE=$(stat -c %s "$WORK/big.bin")
TIME=$(curl -sf -o /dev/null -w '%{time_total}' -F "params=$PARAMS" -F "file=@$WORK/big.bin" "$URL/assemblies")
echo "multipart upload of 1 GiB: $(mb_per_s "$SIZE" "$TIME")"
CREATED=$(curl -sf -F "params=$PARAMS" -F "tus_num_expected_upload_files=1" "$URL/assemblies")
TUS=$(echo "$CREATED" | field tus_url)
META="assembly_url $(echo "$CREATED" | field assembly_ssl_url | tr -d "\n" | base64 -w0),fieldname $(printf file | base64 -w0),filename $(printf big.bin | base64 -w0)"
LOCATION=$(curl -sf -D - -o /dev/null -X POST -H 'Tus-Resumable: 1.0.0' -H "Upload-Length: $SIZE" -H "Upload-Metadata: $META" "$TUS" \
    | sed -n 's/^[Ll]ocation: *//p' | tr -d '\r')
TIME=$(curl -sf -o /dev/null -w '%{time_total}' -X PATCH -H 'Tus-Resumable: 1.0.0' -H 'Upload-Offset: 0' \
    -H 'Content-Type: application/offset+octet-stream' -T "$WORK/big.bin" "$LOCATION")
echo "tus upload of 1 GiB (one PATCH): $(mb_per_s "$SIZE" "$TIME")"

# Peak RSS while receiving a 2 GiB multipart upload.
cat "$WORK/big.bin" "$WORK/big.bin" > "$WORK/huge.bin"
rm "$WORK/big.bin"
curl -sf -o /dev/null -F "params=$PARAMS" -F "file=@$WORK/huge.bin" "$URL/assemblies"
echo "service peak RSS after a 2 GiB multipart upload: $(($(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\).*/\1/p' /proc/$PID/status) / 1024)) MB"
rm "$WORK/huge.bin"

# Images resized per second: 12 images x 4 copies in one Assembly, 100x100 fit.
FILES=()
for copy in 1 2 3 4; do for image in "$WORK"/images/*/*.png; do FILES+=(-F "f$copy-$(basename "$image")=@$image"); done; done
STEPS='{"auth":{"key":"bench"},"steps":{"thumb":{"robot":"/image/resize","use":":original","width":100,"height":100,"result":true}}}'
START=$(date +%s.%N)
STATUS=$(curl -sf -F "params=$STEPS" "${FILES[@]}" "$URL/assemblies" | field assembly_ssl_url)
until curl -sf "$STATUS" | grep -q '"ok":"ASSEMBLY_COMPLETED"'; do sleep 0.05; done
END=$(date +%s.%N)
python3 -c "import sys; print('images resized: %.1f per second (%d images, 100x100 fit)' % (int(sys.argv[1]) / (float(sys.argv[3]) - float(sys.argv[2])), int(sys.argv[1])))" "$(( ${#FILES[@]} / 2 ))" "$START" "$END"
