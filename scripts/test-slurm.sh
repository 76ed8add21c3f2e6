#!/usr/bin/env bash
# The scale-out test on a real Slurm (issue 23): Debian's slurm-wlm and munge (installed when missing),
# munged, slurmctld and slurmd started for this test alone (config, state and spool under a temp dir,
# stopped afterwards, on ports apart from Slurm's defaults), one `assemblyline serve`, and
# deploy/slurm/submit.sh's array of 4 partitions with its merge step (held until the parts are done). Partition 2's process is killed
# with SIGKILL after its first Assembly was created (the debug binary's kill switch, on the task's first
# start only); the test requeues that task (scontrol requeue), which resumes the part's run. Then: every
# part finished, the merged report counts what one host's run of the same manifest does, file by file,
# and the service's Assemblies of the batch hold each file exactly once.
# Usage: scripts/test-slurm.sh [DEBUG_BINARY]   (default .build/debug/assemblyline)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
binary=$(realpath "${1:-.build/debug/assemblyline}")
fail() { echo "slurm test: $*" >&2; exit 1; }
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

missing=()
for package in slurm-wlm munge; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "slurm test: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
fi

work=$(mktemp -d /tmp/assemblyline-slurm.XXXXXX)
pids=()
started_munged=no
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null || true; done
  for daemon in slurmd slurmctld; do
    if [ -f "$work/$daemon.pid" ]; then kill "$(cat "$work/$daemon.pid")" 2> /dev/null || true; fi
  done
  if [ "$started_munged" = yes ] && [ -f /run/munge/munged.pid ]; then $sudo kill "$(cat /run/munge/munged.pid)" 2> /dev/null || true; fi
  sleep 1
  rm -rf "$work"
}
trap cleanup EXIT
# Waits up to $1 seconds for the command after it to succeed.
wait_for() {
  local seconds=$1; shift
  for _ in $(seq $((seconds * 10))); do "$@" > /dev/null 2>&1 && return 0; sleep 0.1; done
  return 1
}

# munge, as the package left it (its key), started unless it runs already.
if ! munge -n > /dev/null 2>&1 < /dev/null; then
  $sudo mkdir -p /run/munge /var/log/munge /var/lib/munge
  $sudo chown munge:munge /run/munge /var/log/munge /var/lib/munge
  $sudo runuser -u munge -- /usr/sbin/munged
  started_munged=yes
  wait_for 10 munge -n < /dev/null || fail "munged did not start"
fi

host=$(hostname -s)
mkdir -p "$work/state" "$work/spool/$host" "$work/log"
cat > "$work/slurm.conf" <<CONF
ClusterName=assemblyline-test
SlurmctldHost=$host
SlurmctldPort=17817
SlurmdPort=17818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool/%n
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SchedulerParameters=bf_interval=1
MinJobAge=600
NodeName=$host CPUs=2 RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf
slurmctld -i
wait_for 20 scontrol ping || fail "slurmctld did not answer: $(tail -5 "$work/log/slurmctld.log")"
slurmd
idle() { sinfo -h -o %T | grep -q idle; }
wait_for 30 idle || fail "slurmd did not come up idle: $(sinfo 2>&1; tail -5 "$work/log/slurmd.log")"

# One local service for every part.
"$binary" serve --listen 127.0.0.1:0 --data-dir "$work/service" --no-signature --key slurm-key > "$work/serve.out" 2> "$work/serve.err" &
pids+=($!)
wait_for 30 grep -q '^listening on ' "$work/serve.out" || fail "serve did not start: $(cat "$work/serve.err")"
base=$(sed -n 's/^listening on //p' "$work/serve.out" | head -1)

# 40 small inputs, sent as themselves.
job=$work/job
for index in $(seq 0 39); do
  mkdir -p "$job/in/d$((index % 4))"
  echo "input $index" > "$job/in/d$((index % 4))/f-$index.txt"
done
cat > "$job/split.yaml" <<YAML
version: 1
name: split
endpoint: $base
auth: {key: slurm-key}
signer: {kind: local, secret_env: SPLIT_SECRET}
inputs: {include: "in/**/*.txt", base: in}
steps:
  ":original": {robot: /upload/handle, result: true}
shards: {files: 2}
poll: {interval: 50ms, max_interval: 50ms}
output: {dir: out}
state_dir: "state/{partition}"
YAML
# One host's run of the same recipe, inputs and outputs.
sed -e 's|state_dir: .*|state_dir: single|' "$job/split.yaml" > "$job/single.yaml"
# The binary the array runs: the debug build, killed after its first Assembly on part 2's first start only
# (a marker file says which start is the first); each start is written to starts.log.
cat > "$work/assemblyline" <<WRAP
#!/bin/bash
echo "start task=\${SLURM_ARRAY_TASK_ID:-} \$*" >> "$work/starts.log"
if [ "\${SLURM_ARRAY_TASK_ID:-}" = 2 ] && [ "\$1" = run ] && mkdir "$work/part-2-started" 2> /dev/null; then
  export ASSEMBLYLINE_KILL_AT=after-created:1
fi
exec "$binary" "\$@"
WRAP
chmod +x "$work/assemblyline"

cd "$job"
# The merge step is submitted held, so that it cannot run between part 2's death and its requeue (once
# the other parts are done, the array has ended); it is released once the array is complete.
export SPLIT_SECRET=not-checked ASSEMBLYLINE=$work/assemblyline REPORT_DIR=$job SBATCH_MERGE_EXTRA=--hold
submitted=$("$root/deploy/slurm/submit.sh" "$job/split.yaml" 4 4 night-slurm)
array=$(echo "$submitted" | sed -n 's/.*array job \([0-9]*\),.*/\1/p')
merge=$(echo "$submitted" | sed -n 's/.*merge job \([0-9]*\).*/\1/p')
if [ -z "$array" ] || [ -z "$merge" ]; then fail "submit.sh said: $submitted"; fi
state_of() { scontrol show job "$1" 2> /dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1; }
part_failed() { [ "$(state_of "${array}_2")" = FAILED ]; }
wait_for 120 part_failed || fail "part 2 was not killed: $(state_of "${array}_2"); $(cat "$job"/assemblyline-"${array}"_2.log 2>/dev/null)"
# Killed mid-run: its run is recorded, with an Assembly created, and reads interrupted (its process is gone).
killed=$("$binary" runs --state-dir state/2 --json)
python3 - "$killed" <<'PY' || fail "part 2 was not killed mid-run: $killed"
import json, sys
runs = json.loads(sys.argv[1])
assert len(runs) == 1 and runs[0]["state"] == "interrupted" and runs[0]["shards"] >= 2, runs
PY
[ "$(sqlite3 -readonly state/2/ledger.sqlite "SELECT count(*) FROM attempts WHERE created_at IS NOT NULL")" -ge 1 ] \
  || fail "part 2 was killed before its first Assembly was created"
# Requeued and started at once (Slurm holds a requeued job back two minutes by its BeginTime). Slurm
# sometimes fails a requeued job at launch, before its script runs, while the killed start is still
# being cleaned up: then the part has not started again (starts.log), and is requeued once more.
starts_of_part_2() { grep -c ' task=2 ' "$work/starts.log"; }
pending() { [ "$(state_of "${array}_2")" = PENDING ]; }
started() { scontrol update jobid="${array}_2" StartTime=now > /dev/null 2>&1; sleep 0.5; [ "$(state_of "${array}_2")" != PENDING ]; }
ended() { case "$(state_of "${array}_2")" in COMPLETED|FAILED) return 0;; *) return 1;; esac; }
for attempt in 1 2 3 4 5; do
  scontrol requeue "${array}_2"
  wait_for 30 pending || fail "part 2 was not requeued: $(state_of "${array}_2")"
  wait_for 60 started || fail "part 2 did not start again: $(scontrol show job "${array}_2" | grep -E 'JobState|StartTime')"
  wait_for 120 ended || fail "part 2 did not end: $(state_of "${array}_2")"
  [ "$(starts_of_part_2)" -ge 2 ] && break
  [ "$attempt" -lt 5 ] || fail "Slurm failed every requeue of part 2 before it started"
  sleep 1
done
parts_done() { for part in 0 1 2 3; do [ "$(state_of "${array}_$part")" = COMPLETED ] || return 1; done; }
wait_for 120 parts_done || fail "the parts did not all complete: $(scontrol show job "$array" | grep -E 'JobId|JobState'); part 2's log: $(cat "$job/assemblyline-${array}_2.log" 2> /dev/null)"
scontrol release "$merge"
merge_done() { [ "$(state_of "$merge")" = COMPLETED ]; }
wait_for 300 merge_done || fail "the merge step did not complete: $(state_of "$merge"); $(scontrol show job "$array" | grep -E 'JobId|JobState')"

# Every part finished, one run each; part 2 was started twice and resumed.
for part in 0 1 2 3; do
  runs=$("$binary" runs --state-dir "state/$part" --json)
  python3 - "$part" "$runs" <<'PY' || fail "part $part: $runs"
import json, sys
part, runs = sys.argv[1], json.loads(sys.argv[2])
assert len(runs) == 1 and runs[0]["state"] == "finished" and runs[0]["partition"] == part + "/4" and runs[0]["batch"] == "night-slurm", runs
PY
done
grep -q 'batch     night-slurm: 4 partitions, 4 finished$' "$job/assemblyline-${merge}-merge.log" \
  || fail "the merge step's report: $(cat "$job/assemblyline-${merge}-merge.log")"

# The merged report equals one host's run of the same manifest; the service holds each file of the batch once.
"$binary" run single.yaml --quiet > /dev/null
"$binary" report latest --state-dir single --format json > single.json
python3 - "$job/night-slurm.json" single.json "$base" <<'PY' || fail "the batch's report and the service's Assemblies differ from one host's run"
import json, subprocess, sys
merged, single, base = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
assert merged["files_by_state"] == single["files_by_state"] and merged["missing"] == [] and merged["unfinished"] == [], (merged, single)
rows = lambda report: sorted((f["relative_path"], f["state"], tuple(f["outputs"])) for f in report["files"])
assert rows(merged) == rows(single) and len(rows(single)) == 40, (rows(merged), rows(single))
listing = json.loads(subprocess.run(["curl", "-sS", "-G", base + "/assemblies", "--data-urlencode",
                                     'params={"auth":{"key":"slurm-key","expires":"2099/01/01 00:00:00+00:00"},"pagesize":5000}',
                                     "--data-urlencode", "signature=x"], capture_output=True, check=True).stdout)
uploads = []
for item in listing["items"]:
    status = json.loads(subprocess.run(["curl", "-sS", base + "/assemblies/" + item["id"]], capture_output=True, check=True).stdout)
    if (status.get("fields") or {}).get("assemblyline_batch") == "night-slurm":
        uploads += [upload["name"] for upload in status.get("uploads", [])]
assert len(uploads) == 40 and len(set(uploads)) == len(set(f["relative_path"].split("/")[-1] for f in single["files"])), sorted(uploads)
PY
echo "slurm test: 4 partitions on Slurm $(sinfo -V | cut -d' ' -f2), part 2 killed and requeued ($attempt requeue(s)); the merged report equals one host's run; each of 40 files sent once"
