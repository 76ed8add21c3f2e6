#!/usr/bin/env bash
# Installs a built assemblyline under DESTDIR+PREFIX: the binary, its manual page, its bash and fish completions,
# the systemd units (not enabled), and the cron file, the Slurm scripts and the Kubernetes objects as
# examples, the units and cron file naming PREFIX/bin/assemblyline.
# Usage: scripts/install.sh BINARY DESTDIR PREFIX
set -euo pipefail
binary=$1 destdir=$2 prefix=$3
root="$destdir$prefix"
installed="$prefix/bin/assemblyline"

install -D -m 0755 "$binary" "$root/bin/assemblyline"
install -d "$root/share/man/man1" "$root/share/bash-completion/completions" "$root/share/fish/vendor_completions.d" \
           "$root/lib/systemd/system" \
           "$root/share/doc/assemblyline/examples"
"$binary" manual > "$root/share/man/man1/assemblyline.1"
"$binary" completion bash > "$root/share/bash-completion/completions/assemblyline"
"$binary" completion fish > "$root/share/fish/vendor_completions.d/assemblyline.fish"
for unit in deploy/systemd/*; do
  sed "s|/usr/local/bin/assemblyline|$installed|g" "$unit" > "$root/lib/systemd/system/$(basename "$unit")"
done
sed "s|/usr/local/bin/assemblyline|$installed|g" deploy/cron/assemblyline > "$root/share/doc/assemblyline/examples/cron.d-assemblyline"
install -d "$root/share/doc/assemblyline/examples/slurm" "$root/share/doc/assemblyline/examples/kubernetes"
install -m 0755 deploy/slurm/* "$root/share/doc/assemblyline/examples/slurm/"
install -m 0644 deploy/kubernetes/* "$root/share/doc/assemblyline/examples/kubernetes/"
install -m 0644 manifests/reference.yaml docs/deploy.md docs/scale-out.md "$root/share/doc/assemblyline/"
chmod 0644 "$root/share/man/man1/assemblyline.1" "$root/share/bash-completion/completions/assemblyline" \
           "$root/share/fish/vendor_completions.d/assemblyline.fish" \
           "$root"/lib/systemd/system/* "$root/share/doc/assemblyline/examples/cron.d-assemblyline"
echo "installed $installed and its manual, completion, systemd units and examples under $root"
