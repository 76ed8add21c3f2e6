#!/usr/bin/env bash
# Installs the Debian packages AssemblyLine builds and tests with, only those that are missing.
set -euo pipefail
packages=(pkg-config libcurl4-openssl-dev libyaml-dev libsqlite3-dev libssl-dev libmicrohttpd-dev libvips-dev
          curl sqlite3 time python3-venv systemd util-linux groff-base openssl dpkg-dev shellcheck
          prometheus chromium fonts-dejavu-core fish gdb procps)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
