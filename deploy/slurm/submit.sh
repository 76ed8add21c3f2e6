#!/bin/bash
# Submits one night's batch to Slurm: N partitions as an array, at most K running at once, then the
# merged report after all of them (afterany: it runs whether the parts succeeded or not).
#
#   deploy/slurm/submit.sh /etc/assemblyline/nightly.yaml 8 2
#
# The batch ID is fixed here, at submission (the manifest file's name and the UTC date, or BATCH), so
# that parts started on both sides of midnight still belong to one batch. K bounds the parts at once;
# `scontrol update jobid=ARRAY_JOB_ID arraytaskthrottle=K` changes it live. With
# limits.partition_share: whole each part takes the manifest's rates whole: bound the account's load
# with K, or with a license (Licenses=transloadit:8 in slurm.conf and SBATCH_EXTRA="-L transloadit:1").
# SBATCH_MERGE_EXTRA adds options to the merge step (--hold: it waits for `scontrol release`).
set -euo pipefail
manifest=${1:?usage: submit.sh MANIFEST N [K] [BATCH]}
count=${2:?usage: submit.sh MANIFEST N [K] [BATCH]}
throttle=${3:-$count}
batch=${4:-${BATCH:-$(basename "$manifest" .yaml)-$(date -u +%Y-%m-%d)}}
here=$(cd "$(dirname "$0")" && pwd)
read -r -a extra <<< "${SBATCH_EXTRA:-}"
read -r -a merge_extra <<< "${SBATCH_MERGE_EXTRA:-}"
array=$(sbatch --parsable "${extra[@]}" --array="0-$((count - 1))%$throttle" "$here/assemblyline-array.sbatch" "$manifest" "$batch")
array=${array%%;*}
merge=$(sbatch --parsable "${merge_extra[@]}" --dependency="afterany:$array" "$here/assemblyline-merge.sbatch" "$manifest" "$batch")
echo "batch $batch: array job ${array}, merge job ${merge%%;*}"
