#!/usr/bin/env bash
# Times `assemblyline plan` on a tree of 100,000 small files (100 directories x 1,000 files), and with
# DIRS=1000 on 1,000,000 (issue 13's target: within 10 s and 300 MB).
#
# Usage: bench/plan.sh            (BIN defaults to .build/release/assemblyline; build it first)
#        BIN=path/to/assemblyline bench/plan.sh;  DIRS=1000 bench/plan.sh
# The tree and the manifest live in bench/work/ (git-ignored) and are reused when already there.
# Prints the wall time and the peak RSS measured by GNU time. Target: under 5 s and 300 MB.
set -euo pipefail

cd "$(dirname "$0")/.."
BIN="${BIN:-.build/release/assemblyline}"
WORK=bench/work
DIRS="${DIRS:-100}"
FILES_PER_DIR=1000
TREE="$WORK/tree-$DIRS"

if [ ! -x "$BIN" ]; then
    echo "plan.sh: $BIN is missing; run 'swift build -c release' first" >&2
    exit 1
fi
if [ ! -x /usr/bin/time ]; then
    echo "plan.sh: installing GNU time" >&2
    SUDO=$([ "$(id -u)" -eq 0 ] || echo sudo)
    $SUDO apt-get install -y -qq time >/dev/null || { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq time >/dev/null; }
fi

mkdir -p "$WORK"
if [ ! -f "$TREE/.complete" ]; then
    echo "plan.sh: creating $((DIRS * FILES_PER_DIR)) files under $TREE" >&2
    rm -rf "$TREE"
    python3 - "$TREE" "$DIRS" "$FILES_PER_DIR" <<'PY'
import os, sys
root, dirs, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for d in range(dirs):
    directory = os.path.join(root, f"d{d:04d}")
    os.makedirs(directory, exist_ok=True)
    for f in range(files):
        with open(os.path.join(directory, f"img{f:04d}.jpg"), "wb") as out:
            out.write(b"x" * (1 + (d * files + f) % 512))
open(os.path.join(root, ".complete"), "w").close()
PY
fi

cat > "$WORK/plan.yaml" <<'YAML'
version: 1
name: bench-plan
endpoint: embedded
signer: {kind: embedded}
inputs: {include: ["tree-DIRS/**/*.jpg"], base: tree-DIRS}
resize: {width: 100, height: 100}
shards: {files: 50}
YAML

sed -i "s/DIRS/$DIRS/g" "$WORK/plan.yaml"
REPORT="$WORK/plan.time"
/usr/bin/time -v -o "$REPORT" "$BIN" plan "$WORK/plan.yaml" > /dev/null
WALL=$(sed -n 's/^[[:space:]]*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$REPORT")
RSS_KB=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$REPORT")
echo "plan of $((DIRS * FILES_PER_DIR)) files: wall $WALL, peak RSS $((RSS_KB / 1024)) MB ($RSS_KB kB)"
