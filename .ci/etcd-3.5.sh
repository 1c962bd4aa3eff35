#!/usr/bin/env bash
# Fetches the etcd 3.5 the image ships (Debian's etcd-server and etcd-client, at the version and
# suite the Dockerfile pins: ETCD_DEB_VERSION, ETCD_DEB_SUITE) without touching the system's
# packages: apt runs with its own sources list, state and cache dirs (it checks the archive's
# signature and each .deb's hash), and the .debs are unpacked with dpkg-deb into a cache dir.
# Idempotent: a cache whose etcd says that version is used as it is. Prints the bin dir (etcd,
# etcdctl, etcdutl) on stdout as its last line; everything else goes to stderr. Exits non-zero
# when it cannot provide that version: CI must not drop 3.5, nor test another 3.5 than it ships.
#
#   ETCD_3_5_BIN_DIR=$(bash .ci/etcd-3.5.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

# the one pin: the Dockerfile's build arguments
deb_version=$(sed -n 's/^ARG ETCD_DEB_VERSION=//p' Dockerfile)
suite=$(sed -n 's/^ARG ETCD_DEB_SUITE=//p' Dockerfile)
version=${deb_version%-*}
trap 'echo "etcd-3.5.sh: FAILED to provide etcd $version (line $LINENO): CI cannot test 3.5" >&2' ERR
[[ $version == 3.5.* && -n $suite ]] || { echo "etcd-3.5.sh: no etcd 3.5 pin in the Dockerfile (ARG ETCD_DEB_VERSION=$deb_version, ARG ETCD_DEB_SUITE=$suite)" >&2; exit 1; }

cache="${ETCD_CACHE_DIR:-$HOME/.cache/etcd-workers}/etcd-$version"
bin="$cache/usr/bin"

is_good() {
  [[ -x "$bin/etcd" && -x "$bin/etcdctl" && -x "$bin/etcdutl" ]] &&
    "$bin/etcd" --version 2>/dev/null | grep "^etcd Version: $version\$" >/dev/null
}

if ! is_good; then
  echo "etcd-3.5.sh: fetching etcd-server and etcd-client $deb_version from Debian $suite into $cache" >&2
  apt_dir="$cache.apt"
  rm -rf "$apt_dir" "$cache.new"
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/debs" "$cache.new"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" \
    >"$apt_dir/sources.list"
  apt_opts=(-o Dir::Etc::sourcelist="$apt_dir/sources.list" -o Dir::Etc::sourceparts=-
    -o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache" -o APT::Sandbox::User=root)
  apt-get "${apt_opts[@]}" -qq update >&2
  if ! (cd "$apt_dir/debs" && apt-get "${apt_opts[@]}" -qq download "etcd-server=$deb_version" "etcd-client=$deb_version" >&2); then
    echo "etcd-3.5.sh: Debian $suite no longer has etcd $deb_version (it keeps only its current version):" \
      "$(apt-cache "${apt_opts[@]}" policy etcd-server | sed -n 's/^ *Candidate: //p') is there now." \
      "Move ARG ETCD_DEB_VERSION in the Dockerfile to it; CI then tests and the image ships that one." >&2
    exit 1
  fi
  for deb in "$apt_dir"/debs/*.deb; do
    dpkg-deb -x "$deb" "$cache.new"
  done
  rm -rf "$cache"
  mv "$cache.new" "$cache"
  rm -rf "$apt_dir"
  if ! is_good; then
    echo "etcd-3.5.sh: $bin/etcd does not say etcd Version: $version:" >&2
    "$bin/etcd" --version >&2 || true
    exit 1
  fi
fi
"$bin/etcd" --version | sed -n 1p >&2
echo "$bin"
