#!/usr/bin/env bash
# The curl floor of bench/pipeline.sh, one shard: sign the params (HMAC-SHA384 with openssl), create the
# Assembly under a client-chosen ID with the shard's files in one multipart request, poll its status
# (at once, then every BENCH_POLL seconds, as `assemblyline run` does) until ASSEMBLY_COMPLETED, then
# download every result of `:original` over one connection. Bash builtins wherever they do, so that the
# floor spends its time in curl, not in starting helper processes.
#
# Usage: pipeline_curl.sh LIST   (LIST: the shard's file paths, one a line; its name names the shard)
# Environment: BENCH_URL, BENCH_KEY, BENCH_SECRET, BENCH_POLL (seconds between polls), BENCH_OUT.
# The secret is a throwaway one made by bench/pipeline.sh; openssl sees it on its command line.
set -euo pipefail
export TZ=UTC
LIST=$1
SHARD=${LIST##*/}
SHARD=${SHARD%.list}
printf -v ID '%04x%04x%04x%04x%04x%04x%04x%04x' $RANDOM $RANDOM $RANDOM $RANDOM $RANDOM $RANDOM $RANDOM $RANDOM
printf -v EXPIRES '%(%Y/%m/%d %H:%M:%S+00:00)T' $((EPOCHSECONDS + 3600))
PARAMS="{\"auth\":{\"key\":\"$BENCH_KEY\",\"expires\":\"$EXPIRES\",\"nonce\":\"$ID\"},\"steps\":{\":original\":{\"robot\":\"/upload/handle\",\"result\":true}}}"
SIGNATURE=$(printf %s "$PARAMS" | openssl dgst -sha384 -hmac "$BENCH_SECRET")
SIGNATURE="sha384:${SIGNATURE##* }"

FILES=()
INDEX=0
while IFS= read -r path; do
    FILES+=(-F "file_$INDEX=@$path")
    INDEX=$((INDEX + 1))
done < "$LIST"

ASSEMBLY="$BENCH_URL/assemblies/$ID"
STATUS=$(curl -sS --fail-with-body --form-string "params=$PARAMS" --form-string "signature=$SIGNATURE" "${FILES[@]}" "$ASSEMBLY")
FIRST=1
until [[ $STATUS == *'"ok":"ASSEMBLY_COMPLETED"'* ]]; do
    if [[ $STATUS == *'"error":"'* ]]; then
        echo "pipeline_curl.sh: shard $SHARD failed: $STATUS" >&2
        exit 1
    fi
    [ -n "$FIRST" ] || sleep "$BENCH_POLL"
    FIRST=
    STATUS=$(curl -sS --fail-with-body "$ASSEMBLY")
done

# The result URLs: the `ssl_url`s before `"uploads":` (the status's keys are sorted, `results` first).
# grep rather than jq, whose start-up alone cost a fifth of the floor's CPU, or bash patterns, which
# are quadratic on a 40 KB status.
URLS=()
while IFS= read -r match; do
    [ "$match" != '"uploads":' ] || break
    URLS+=("${match#'"ssl_url":"'}")
done < <(grep -o '"ssl_url":"[^"]*\|"uploads":' <<< "$STATUS")
if [ "${#URLS[@]}" -ne "$INDEX" ]; then
    echo "pipeline_curl.sh: shard $SHARD has ${#URLS[@]} results for $INDEX files" >&2
    exit 1
fi
curl -sS --fail --create-dirs --output-dir "$BENCH_OUT/$SHARD" --remote-name-all "${URLS[@]}"
