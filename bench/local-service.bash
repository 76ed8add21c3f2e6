# Sourced by the benchmarks that run `assemblyline serve`: start it on a free port, stop it, and stop it on exit.
# Needs BIN, BENCH_KEY, BENCH_SECRET (exported) and WORKERS; sets SERVICE (its PID) and BENCH_URL (exported).
SERVICE=""
trap '[ -z "$SERVICE" ] || { kill "$SERVICE" 2>/dev/null; wait "$SERVICE" 2>/dev/null || true; }' EXIT

# Starts `assemblyline serve` with its data in $1 (its output in $1.out and $1.err), its rate limits off;
# waits up to 120 s for it to listen (a data directory of records stored before `ended` files is read whole once).
start_service() {
    "$BIN" serve --listen 127.0.0.1:0 --data-dir "$1" --key "$BENCH_KEY" --secret-env BENCH_SECRET \
        --workers "$WORKERS" --creations-per-minute 0 --status-per-second 0 > "$1.out" 2> "$1.err" &
    SERVICE=$!
    for _ in $(seq 1200); do grep -q '^listening on' "$1.out" 2> /dev/null && break; sleep 0.1; done
    BENCH_URL=$(sed -n 's/^listening on //p' "$1.out" | head -1)
    [ -n "$BENCH_URL" ] || { echo "$(basename "$0"): the service did not start: $(cat "$1.err")" >&2; exit 1; }
    export BENCH_URL
}

# Stops the service and waits for it (so that its closing line is written); sets SERVICE_CPU to the CPU seconds it used.
stop_service() {
    local ticks
    ticks=$(awk '{ print $14 + $15 }' "/proc/$SERVICE/stat")
    kill "$SERVICE"
    wait "$SERVICE" || true
    SERVICE=""
    SERVICE_CPU=$(awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t / hz }')
}
