#!/usr/bin/env bash
# Runs a Swift toolchain command (swift build, swift test) with a temporary directory of its own, removed
# when it ends. The toolchain's driver leaves an empty `TemporaryDirectory.XXXXXX` (holding `.keep-directory`)
# in $TMPDIR at every call, five or six per `swift build` or `swift test`: 51 after one `make test`
# (seen with `strace -f -e trace=mkdir swift --version`: the `swift` driver makes it, not this project's
# code). The tests run under it too, so what a test leaves is removed with it.
set -u
own=$(mktemp -d "${TMPDIR:-/tmp}/assemblyline-swift.XXXXXX") || exit 1
# As open as /tmp itself: some tests run the binary as another user, who must reach their folders.
chmod 1777 "$own"
trap 'rm -rf "$own"' EXIT
TMPDIR="$own" "$@"
