#!/usr/bin/env bash
# Fetches etcd 3.5.16 (Debian trixie's etcd-server and etcd-client 3.5.16-4) without touching
# the system's packages: apt runs with its own sources list, state and cache dirs, and the .debs
# are unpacked with dpkg-deb into a cache dir. Idempotent: a cache whose etcd says 3.5.16 is used
# as it is. Prints the bin dir (etcd, etcdctl, etcdutl) on stdout as its last line; everything
# else goes to stderr. Exits non-zero when it cannot provide 3.5.16: CI must not drop 3.5.
#
#   ETCD_3_5_BIN_DIR=$(bash .ci/etcd-3.5.sh)
set -euo pipefail
trap 'echo "etcd-3.5.sh: FAILED to provide etcd 3.5.16 (line $LINENO): CI cannot test 3.5" >&2' ERR

version=3.5.16
cache="${ETCD_CACHE_DIR:-$HOME/.cache/etcd-workers}/etcd-$version"
bin="$cache/usr/bin"

is_good() {
  [[ -x "$bin/etcd" && -x "$bin/etcdctl" && -x "$bin/etcdutl" ]] &&
    "$bin/etcd" --version 2>/dev/null | grep "^etcd Version: $version\$" >/dev/null
}

if ! is_good; then
  echo "etcd-3.5.sh: fetching etcd $version from Debian trixie into $cache" >&2
  apt_dir="$cache.apt"
  rm -rf "$apt_dir" "$cache.new"
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/debs" "$cache.new"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" \
    >"$apt_dir/sources.list"
  apt_opts=(-o Dir::Etc::sourcelist="$apt_dir/sources.list" -o Dir::Etc::sourceparts=-
    -o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache" -o APT::Sandbox::User=root)
  apt-get "${apt_opts[@]}" -qq update >&2
  (cd "$apt_dir/debs" && apt-get "${apt_opts[@]}" -qq download etcd-server etcd-client >&2)
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
