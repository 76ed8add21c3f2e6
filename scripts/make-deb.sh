#!/usr/bin/env bash
# Builds dist/assemblyline_VERSION_ARCH.deb from a release binary: the files of scripts/install.sh under
# /usr, /etc/assemblyline, a postinst that creates the system user the units run as, and a Depends line that dpkg-shlibdeps reads off the binary's own shared libraries, so that a
# batch host needs no Swift toolchain and no list here can drift from what the binary links.
# Usage: scripts/make-deb.sh BINARY
set -euo pipefail
binary=$1
# The first line of --version: `assemblyline VERSION (commit HASH)`.
identity=$("$binary" --version | head -1)
version=$(cut -d' ' -f2 <<< "$identity")
commit=${identity##*(commit }
commit=${commit%)}
arch=$(dpkg --print-architecture)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage="$work/stage"

scripts/install.sh "$binary" "$stage" /usr > /dev/null
gzip -9n "$stage/usr/share/man/man1/assemblyline.1"
install -d "$stage/usr/share/doc/assemblyline"
printf 'AssemblyLine %s, built from commit %s.\nSee /usr/share/doc/assemblyline/deploy.md.\n' \
  "$version" "$commit" > "$stage/usr/share/doc/assemblyline/README"

# dpkg-shlibdeps wants a debian/control beside it, naming the package.
install -d "$work/debian"
printf 'Source: assemblyline\n\nPackage: assemblyline\nArchitecture: any\n' > "$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O "stage/usr/bin/assemblyline" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "make-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

# The units run as the system user assemblyline and read /etc/assemblyline/<instance>.yaml.
install -d "$stage/etc/assemblyline"

install -d "$stage/DEBIAN"
cat > "$stage/DEBIAN/postinst" <<'POSTINST'
#!/bin/sh
# Creates the system user the units run as, when it is missing. Removal keeps it: files it owns
# (the state directory, outputs) may outlive the package.
set -e
if [ "$1" = configure ] && ! getent passwd assemblyline > /dev/null; then
    useradd --system --user-group --home-dir /var/lib/assemblyline --no-create-home \
        --shell /usr/sbin/nologin --comment "AssemblyLine runs" assemblyline
fi
POSTINST
chmod 0755 "$stage/DEBIAN/postinst"
cat > "$stage/DEBIAN/control" <<CONTROL
Package: assemblyline
Version: $version
Architecture: $arch
Maintainer: AssemblyLine developers <assemblyline@localhost>
Section: utils
Priority: optional
Installed-Size: $(du -sk "$stage/usr" | cut -f1)
Depends: $depends, passwd
Description: batch orchestrator for Transloadit Assemblies
 Shards input files into Assemblies, signs them through a backend, uploads with bounded
 parallelism, polls them to completion, downloads and verifies the results, and records
 every step in a SQLite run ledger so that a failed run is resumed by its run ID. Ships a
 Transloadit-compatible local service and a reference signing service.
CONTROL

mkdir -p dist
package="dist/assemblyline_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$package" > /dev/null
echo "$package"
echo "Depends: $depends" >&2
