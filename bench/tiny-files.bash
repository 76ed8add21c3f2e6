# Sourced by the benchmarks that run tiny files through `assemblyline serve` (scale.sh, html.sh): inputs,
# timing and the manifest. Needs WORK (a directory for the timing files), SHARD_FILES and CONCURRENCY.

# Makes $2 tiny text files under $1 (folders of 1,000), once.
make_inputs() {
    [ "$(cat "$1.complete" 2>/dev/null)" = "$2" ] && return
    echo "$(basename "$0"): generating $2 files under $1" >&2
    rm -rf "$1" "$1.complete"
    python3 - "$1" "$2" <<'PY'
import os, sys
root, count = sys.argv[1], int(sys.argv[2])
for index in range(count):
    folder = os.path.join(root, "d%04d" % (index // 1000))
    if index % 1000 == 0:
        os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "f-%07d.txt" % index), "w") as out:
        out.write("tiny input %d\n" % index)
PY
    echo "$2" > "$1.complete"
}

# Drops the contents of the inputs under $1 from the page cache (their directories and inodes stay), so that a run
# reads them from the disk as a first run of files written days ago does, whatever size the set is.
evict_inputs() {
    python3 - "$1" <<'PY'
import os, sys
for folder, _, names in os.walk(sys.argv[1]):
    for name in names:
        descriptor = os.open(os.path.join(folder, name), os.O_RDONLY)
        os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(descriptor)
PY
}

# Runs "$@" under /usr/bin/time; sets WALL (s), RSS (MB) and CPU (s), which the callers read.
# shellcheck disable=SC2034
timed() {
    local start end rss user sys
    start=$(date +%s%N)
    /usr/bin/time -f '%M %U %S' -o "$WORK/time" "$@" > "$WORK/log" 2>&1 || {
        echo "$(basename "$0"): $* failed; its output:" >&2
        tail -20 "$WORK/log" >&2
        exit 1
    }
    end=$(date +%s%N)
    read -r rss user sys < <(tail -1 "$WORK/time")
    WALL=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", (e - s) / 1e9 }')
    RSS=$((rss / 1024))
    CPU=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
}

# The manifest of a run of the inputs under $1 into $2.
manifest() {
    cat <<YAML
version: 1
name: ${MANIFEST_NAME:-bench-scale}
endpoint: \${BENCH_URL}
auth: {key: "\${BENCH_KEY}"}
signer: {kind: local, secret_env: BENCH_SECRET}
inputs: {include: "$1/**/*.txt", base: "$1"}
steps:
  ":original": {robot: /upload/handle, result: true}
shards: {files: $SHARD_FILES}
concurrency: {assemblies: $CONCURRENCY, uploads: $CONCURRENCY, downloads: $CONCURRENCY}
poll: {interval: 50ms, max_interval: 50ms}
limits: {creations_per_minute: 100000, status_per_second: 100}
output: {dir: "$2"}
YAML
}
