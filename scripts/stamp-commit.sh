#!/usr/bin/env bash
# Writes the commit being built into Sources/CBuildStamp/include/build_commit.h, for `--version`;
# rewrites it only when it changed, so that an unchanged tree is not rebuilt.
set -euo pipefail
cd "$(dirname "$0")/.."
commit=$(git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
target=Sources/CBuildStamp/include/build_commit.h
line="#define ASSEMBLYLINE_COMMIT \"$commit\""
if [ ! -f "$target" ] || [ "$(cat "$target")" != "$line" ]; then
    echo "$line" > "$target"
    # A plain `swift build` before the header existed compiled the stamp without it, and recorded no
    # dependency on it: touch the source so that the next build sees the header.
    touch Sources/CBuildStamp/build_stamp.c
fi
