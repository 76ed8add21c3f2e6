#!/usr/bin/env bash
# Issue 13's resume target: a resume of a 100,000-file run with 10 unfinished shards sends its first
# request within 1 s of its start. The run: bench/plan.sh's tree of 100,000 small files in shards of
# 10 (10,000 shards) against a stand-in endpoint that answers every request 503 at once and writes
# down when each arrived; `run --max-duration 1s` leaves it interrupted, then every shard but the
# first 10 is marked done in its ledger (docs/ledger.md's tables). The resume is timed from its
# start to the first request the endpoint saw (the preflight GET) and to the first about an
# Assembly (a lookup of a shard left `signed`, or a creation).
#
# Usage: bench/resume.sh   (BIN defaults to .build/release/assemblyline; builds the tree with bench/plan.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${BIN:-.build/release/assemblyline}"
WORK=bench/work/resume
[ -x "$BIN" ] || { echo "resume.sh: $BIN is missing; run 'make release' first" >&2; exit 1; }
[ -f bench/work/tree-100/.complete ] || BIN="$BIN" bench/plan.sh > /dev/null
rm -rf "$WORK" && mkdir -p "$WORK"
ln -s ../tree-100 "$WORK/tree"

python3 - "$WORK/endpoint.log" "$WORK/endpoint.port" <<'PY' &
import http.server, sys, time
log = open(sys.argv[1], "a", buffering=1)
class Refuse(http.server.BaseHTTPRequestHandler):
    def answer(self):
        log.write(f"{time.time():.6f} {self.command} {self.path}\n")
        length = int(self.headers.get("Content-Length") or 0)
        while length > 0:
            length -= len(self.rfile.read(min(length, 1 << 16)))
        body = b'{"error":"SERVER_503","message":"stand-in"}'
        self.send_response(503)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    do_GET = do_POST = do_DELETE = answer
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Refuse)
open(sys.argv[2], "w").write(str(server.server_port))
server.serve_forever()
PY
ENDPOINT=$!
trap 'kill $ENDPOINT 2> /dev/null || true' EXIT
for _ in $(seq 50); do [ -s "$WORK/endpoint.port" ] && break; sleep 0.1; done

cat > "$WORK/m.yaml" <<YAML
version: 1
name: bench-resume
endpoint: http://127.0.0.1:$(cat "$WORK/endpoint.port")
auth: {key: bench-key}
signer: {kind: local, secret_env: BENCH_SECRET}
inputs: {include: "tree/**/*.jpg", base: tree}
steps:
  ":original": {robot: /upload/handle, result: true}
shards: {files: 10}
retry: {attempts: 100, base_delay: 1s, max_delay: 1s}
state_dir: state
YAML
export BENCH_SECRET=bench-secret XDG_STATE_HOME="$WORK/xdg"

"$BIN" run "$WORK/m.yaml" --max-duration 1s --quiet > "$WORK/run.out" 2> "$WORK/run.err" || true
RUN_ID=$(head -1 "$WORK/run.out")
sqlite3 "$WORK/state/ledger.sqlite" "
  UPDATE shards SET state = 'downloaded', error_code = NULL, error_message = NULL, retryable = NULL
    WHERE run_id = '$RUN_ID' AND shard_index >= 10;
  UPDATE files SET state = 'done' WHERE run_id = '$RUN_ID' AND shard_index >= 10;"
LEFT=$(sqlite3 "$WORK/state/ledger.sqlite" "SELECT count(*) FROM shards WHERE run_id = '$RUN_ID' AND state != 'downloaded'")
FILES=$(sqlite3 "$WORK/state/ledger.sqlite" "SELECT count(*) FROM files WHERE run_id = '$RUN_ID'")

: > "$WORK/endpoint.log"
START=$(date +%s.%N)
/usr/bin/time -f '%M' -o "$WORK/resume.rss" "$BIN" resume "$RUN_ID" --state-dir "$WORK/state" --max-duration 3s --quiet > "$WORK/resume.out" 2>&1 || true
FIRST=$(awk 'NR == 1 { print $1 }' "$WORK/endpoint.log")
FIRST_ASSEMBLY=$(awk '$3 ~ /^\/assemblies/ { print $1; exit }' "$WORK/endpoint.log")
awk -v s="$START" -v f="$FIRST" -v p="$FIRST_ASSEMBLY" -v files="$FILES" -v left="$LEFT" -v rss="$(tail -1 "$WORK/resume.rss")" 'BEGIN {
    printf "resume of a %d-file run with %d unfinished shards: first request %.3f s after the start, first about an Assembly %.3f s, peak RSS %d MB (target: first request within 1 s)\n",
           files, left, f - s, p - s, rss / 1024 }'
