#!/usr/bin/env bash
# The package test: make install's layout under another prefix; the .deb installs with dpkg -i, and with the build tree moved away the installed
# binary prints its version, links nothing of the Swift toolchain or the build tree, and runs
# make demo's manifest to the end, every thumbnail on disk, and 600 tiny files in 30 shards against its serve, every
# output in place and no temp file left; the package's postinst made the system user
# the units run as, and the installed unit's command line, run as that user for an instance whose manifest is
# the example in /etc/assemblyline, makes every thumbnail in its state directory, while the same line without
# the unit's --state-dir (the manifest's state_dir, beside it in /etc) exits 74 naming the fix. The package (and
# that user, and what the test put in /etc/assemblyline and /var/lib/assemblyline) are removed afterwards
# unless they were there before. Usage: scripts/test-deb.sh PACKAGE.deb
set -euo pipefail
package=$1
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
fail() { echo "package test: $*" >&2; exit 1; }

was_installed=no
dpkg-query -W -f='${Status}' assemblyline 2>/dev/null | grep -q 'install ok installed' && was_installed=yes
user_existed=no
getent passwd assemblyline > /dev/null && user_existed=yes
state_home_existed=no
[ -d /var/lib/assemblyline ] && state_home_existed=yes
instance="package-test-$$"
work=$(mktemp -d)
moved=".build.moved-$$"
cleanup() {
  [ -d "$moved" ] && mv "$moved" .build
  $sudo rm -rf "/etc/assemblyline/$instance.yaml" "/etc/assemblyline/$instance-samples" "/var/lib/assemblyline/$instance"
  [ "$state_home_existed" = yes ] || $sudo rm -rf /var/lib/assemblyline
  [ "$was_installed" = yes ] || $sudo dpkg -r assemblyline > /dev/null 2>&1 || true
  if [ "$user_existed" = no ] && getent passwd assemblyline > /dev/null; then
    $sudo userdel assemblyline > /dev/null 2>&1 || true
    ! getent group assemblyline > /dev/null || $sudo groupdel assemblyline > /dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

$sudo dpkg -i "$package" > /dev/null
# make install's layout under another prefix, from the installed binary: every path names that prefix.
scripts/install.sh /usr/bin/assemblyline "$work/destdir" /opt/al > /dev/null
for file in bin/assemblyline share/man/man1/assemblyline.1 share/bash-completion/completions/assemblyline \
            share/fish/vendor_completions.d/assemblyline.fish lib/systemd/system/assemblyline@.service share/doc/assemblyline/examples/cron.d-assemblyline; do
  [ -s "$work/destdir/opt/al/$file" ] || fail "make install left no $file"
done
grep -q 'ExecStart=/opt/al/bin/assemblyline run' "$work/destdir/opt/al/lib/systemd/system/assemblyline@.service" \
  || fail "the installed unit does not name /opt/al/bin/assemblyline"
[ -d .build ] && mv .build "$moved"
clean_env=(env -i "HOME=$work" "PATH=/usr/bin:/bin" "XDG_STATE_HOME=$work/state")

[ "$("${clean_env[@]}" sh -c 'command -v assemblyline')" = /usr/bin/assemblyline ] || fail "assemblyline is not /usr/bin/assemblyline"
libraries=$(ldd /usr/bin/assemblyline)
if grep -q 'not found' <<< "$libraries"; then fail "unresolved libraries: $(grep 'not found' <<< "$libraries")"; fi
if grep -qE '/opt/swift|\.build|libswift' <<< "$libraries"; then fail "links the toolchain or the build tree: $libraries"; fi
version=$("${clean_env[@]}" assemblyline --version)
grep -qE '^assemblyline [0-9]+\.[0-9]+\.[0-9]+ \(commit [0-9a-f]{12}' <<< "$version" || fail "--version printed: $version"
for file in /usr/share/man/man1/assemblyline.1.gz /usr/share/bash-completion/completions/assemblyline \
            /usr/share/fish/vendor_completions.d/assemblyline.fish \
            /usr/lib/systemd/system/assemblyline@.service /usr/lib/systemd/system/assemblyline@.timer; do
  dpkg -L assemblyline | grep -qx "$file" || fail "the package lacks $file"
done
grep -q 'ExecStart=/usr/bin/assemblyline run' /usr/lib/systemd/system/assemblyline@.service || fail "the unit does not run /usr/bin/assemblyline"
# The user the units run as: a system account without a login shell, which can run the binary.
IFS=: read -r _ _ uid _ _ home shell <<< "$(getent passwd assemblyline)" || fail "the package made no user assemblyline"
[ "$uid" -lt 1000 ] && [ "$shell" = /usr/sbin/nologin ] && [ "$home" = /var/lib/assemblyline ] \
  || fail "assemblyline is not a system user without a shell: uid $uid, home $home, shell $shell"
$sudo setpriv --reuid=assemblyline --regid=assemblyline --clear-groups /usr/bin/assemblyline --version > /dev/null \
  || fail "the user assemblyline cannot run /usr/bin/assemblyline"
[ -d /etc/assemblyline ] || fail "the package made no /etc/assemblyline"

mkdir -p "$work/manifests"
cp manifests/example.yaml "$work/manifests/"
python3 scripts/make-sample-images.py "$work/manifests/samples" > /dev/null
inputs=$(find "$work/manifests/samples" -name '*.png' | wc -l)
(cd "$work" && "${clean_env[@]}" assemblyline run manifests/example.yaml --quiet) || fail "the demo manifest's run exited $?"
report=$(cd "$work" && "${clean_env[@]}" assemblyline report latest --manifest manifests/example.yaml)
grep -q '^state     finished' <<< "$report" || fail "the run did not finish: $report"
grep -qE "^files +$inputs: $inputs done$" <<< "$report" || fail "the report does not say $inputs files done: $report"
outputs=$(find "$work/runs/output" -name '*.jpg' | wc -l)
[ "$outputs" -eq "$inputs" ] || fail "$outputs thumbnails on disk for $inputs inputs"
# The release build's own check of the downloads' last step (the tests run debug builds): no temp file is left.
parts=$(find "$work/runs/output" -name '*.part' | wc -l)
[ "$parts" -eq 0 ] || fail "$parts temp files left beside the thumbnails"
# The same for a run of many shards against the installed binary's serve, whose results are fetched while their
# Assemblies execute and placed with each shard's downloads (a release-only miscompile once left temp files and
# recorded them downloaded with every test green): 600 tiny files in shards of 20, each in place, none left as a temp
# file, the ledger saying all done. The benchmarks' helpers start the service and write the manifest.
BIN=/usr/bin/assemblyline WORKERS=2 SHARD_FILES=20 CONCURRENCY=4 WORK=$work
export BENCH_KEY=package-test
BENCH_SECRET=$(openssl rand -hex 24)
export BENCH_SECRET
. bench/local-service.bash
. bench/tiny-files.bash
trap '[ -z "$SERVICE" ] || kill "$SERVICE" 2>/dev/null; cleanup' EXIT
make_inputs "$work/tiny" 600 2> /dev/null
manifest "$work/tiny" "$work/tiny-out" > "$work/tiny.yaml"
start_service "$work/serve"
assemblyline run "$work/tiny.yaml" --state-dir "$work/tiny-state" --quiet || fail "the run of 600 tiny files exited $?"
stop_service
tiny=$(find "$work/tiny-out" -type f ! -name '*.part' | wc -l)
parts=$(find "$work/tiny-out" -name '*.part' | wc -l)
[ "$tiny" -eq 600 ] && [ "$parts" -eq 0 ] || fail "the run of 600 tiny files left $tiny outputs and $parts temp files"
report=$(assemblyline report latest --state-dir "$work/tiny-state")
grep -qE "^files +600: 600 done$" <<< "$report" || fail "the report of the 600 tiny files does not say all done: $report"
# The installed unit as systemd runs assemblyline@$instance: the example manifest in /etc/assemblyline (its samples
# beside it), StateDirectory= made and owned by the user as systemd makes it, as that user from /, with the unit's
# Environment=, %i expanded and $ASSEMBLYLINE_ARGS unset.
unit=/usr/lib/systemd/system/assemblyline@.service
grep -qx 'StateDirectory=assemblyline' "$unit" || fail "the unit's StateDirectory= is not assemblyline"
sed "s|samples|$instance-samples|g" manifests/example.yaml | $sudo tee "/etc/assemblyline/$instance.yaml" > /dev/null
$sudo cp -r "$work/manifests/samples" "/etc/assemblyline/$instance-samples"
$sudo chmod -R a+rX "/etc/assemblyline/$instance.yaml" "/etc/assemblyline/$instance-samples"
$sudo install -d -o assemblyline -g assemblyline -m 0755 /var/lib/assemblyline
unit_setting() { sed -n "s/^$1=//p" "$unit" | sed "s/%i/$instance/g"; }
mapfile -t unit_environment < <(unit_setting Environment)
read -r -a exec_start <<< "$(unit_setting ExecStart)"
command=()
for word in "${exec_start[@]}"; do
  case "$word" in
    "\$ASSEMBLYLINE_ARGS") ;;
    "\${"*"}") name=${word#??}; name=${name%?}; command+=("$(printf '%s\n' "${unit_environment[@]}" | sed -n "s/^$name=//p")") ;;
    *) command+=("$word") ;;
  esac
done
[ "${command[*]}" = "/usr/bin/assemblyline run /etc/assemblyline/$instance.yaml --state-dir /var/lib/assemblyline/$instance --quiet --stats 5m" ] \
  || fail "the unit runs: ${command[*]}"
as_service=(${sudo:+"$sudo"} setpriv --reuid=assemblyline --regid=assemblyline --clear-groups env -i PATH=/usr/bin:/bin "${unit_environment[@]}")
(cd / && "${as_service[@]}" "${command[@]}") || fail "the unit's command line exited $? as the user assemblyline"
thumbnails=$(find "/var/lib/assemblyline/$instance/output" -name '*.jpg' | wc -l)
[ "$thumbnails" -eq "$inputs" ] || fail "$thumbnails thumbnails in the unit's state directory for $inputs inputs"
# The same line without --state-dir: the manifest's state_dir, beside it in /etc, which the user cannot write.
beside=()
for ((i = 0; i < ${#command[@]}; i++)); do
  if [ "${command[$i]}" = --state-dir ]; then i=$((i + 1)); else beside+=("${command[$i]}"); fi
done
status=0
refused=$(cd / && "${as_service[@]}" "${beside[@]}" 2>&1) || status=$?
[ "$status" -eq 74 ] || fail "a state directory the user cannot write exited $status: $refused"
grep -q 'state_dir in the manifest, or --state-dir DIR' <<< "$refused" || fail "the error names no fix: $refused"
echo "package test: $package installs; $(head -1 <<< "$version"); the system user assemblyline runs it; the demo manifest made $outputs thumbnails from the installed binary, 600 tiny files in 30 shards $tiny outputs; the unit's command line made $thumbnails in /var/lib/assemblyline/$instance as assemblyline, and without its --state-dir exits 74 naming the fix"
