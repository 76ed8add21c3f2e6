#!/usr/bin/env bash
# Runs one `swift test` step of `make check` or `make test`: quiet (each issue a test records, and the run's
# summary), under a time limit (scripts/time-limit.sh). Past the limit it names the tests that had started and not
# ended, read off the run's event stream (written as the tests go; `swift test` relays their console output late).
# Usage: scripts/swift-test.sh SECONDS [swift test ARG...]
set -u
limit=$1
shift
events=$(mktemp "${TMPDIR:-/tmp}/swift-test-events.XXXXXX")
trap 'rm -f "$events"' EXIT
scripts/time-limit.sh "$limit" scripts/swift-tool.sh "${SWIFT:-swift}" test --skip-build --quiet \
  --event-stream-output-path "$events" --event-stream-version 0 "$@"
status=$?
if [ "$status" -eq 124 ]; then
  echo "swift test $*: the tests that had started and not ended at the limit:" >&2
  python3 - "$events" >&2 <<'PY'
import json, sys
running = {}
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    try:
        record = json.loads(line)
    except ValueError:
        continue
    payload = record.get("payload", {})
    if record.get("kind") != "event" or "testID" not in payload:
        continue
    if payload["kind"] == "testStarted":
        running[payload["testID"]] = payload.get("instant", {}).get("absolute", 0)
    elif payload["kind"] in ("testEnded", "testSkipped"):
        running.pop(payload["testID"], None)
for test in running:
    print("  " + test)
PY
fi
exit "$status"
