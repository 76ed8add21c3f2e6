#!/usr/bin/env bash
# Runs a step of `make test` with a time limit. Past the limit it prints what the step's processes are doing (each
# one's command line, every thread's stack of those built here, by gdb) and kills them all, so that a step that hangs
# fails the run at once and says where, instead of holding CI until CI's own limit ends it with nothing said.
# Exits with the step's status, or 124 past the limit. Usage: scripts/time-limit.sh SECONDS COMMAND [ARG...]
set -u
limit=$1
shift
# A session of its own: the step's processes (test binaries, the servers they start) are found and killed by it.
# A non-interactive bash starts a background command with SIGINT and SIGQUIT ignored, and every test process and
# child would inherit that: `env` gives them back their default actions, as under cron or systemd.
setsid env --default-signal=INT,QUIT "$@" &
leader=$!
trap 'pkill -TERM -s "$leader"' INT TERM
expired="${TMPDIR:-/tmp}/time-limit.$$"
(
  for ((waited = 0; waited < limit; waited++)); do
    sleep 1
    kill -0 "$leader" 2> /dev/null || exit 0
  done
  touch "$expired"
  echo "time-limit: '$*' still running after ${limit} s; its processes:" >&2
  ps -o pid=,etimes=,args= -s "$leader" | cut -c1-300 >&2
  for pid in $(pgrep -s "$leader"); do
    case "$(readlink "/proc/$pid/exe" 2> /dev/null)" in
      */.build/*)
        echo "time-limit: the threads of $pid:" >&2
        gdb -p "$pid" -batch -nx -ex 'set print frame-arguments none' -ex 'thread apply all bt 30' 2>&1 \
          | grep -E '^(Thread|#)' >&2 ;;
    esac
  done
  # By session, not process group: Foundation's Process starts each child (a test's server) in a group of its own.
  pkill -KILL -s "$leader"
) &
watcher=$!
wait "$leader"
status=$?
kill "$watcher" 2> /dev/null
wait "$watcher" 2> /dev/null
if [ -e "$expired" ]; then
  rm -f "$expired"
  exit 124
fi
exit "$status"
