#!/usr/bin/env bash
# Unpacks the reference builds of etcd-backup-restore's etcdbrctl (v0.23.0, and v0.40.0 with its
# no-fsync change) from ../shared/tools/, when that directory is there beside the checkout, into a
# cache dir, and prints `export` lines for their paths (ETCDBRCTL_V0_23_0, ETCDBRCTL_V0_40_0) on
# stdout; nothing else goes to stdout. Where the tools are absent (a fresh clone with nothing beside
# it) it prints nothing and the interop tests skip with a message (test-support's ReferencePeer).
#
#   eval "$(bash .ci/reference-peers.sh)"
set -euo pipefail
cd "$(dirname "$0")/.."
tools=${ETCD_WORKERS_REFERENCE_TOOLS:-../shared/tools}
cache="${ETCD_CACHE_DIR:-$HOME/.cache/etcd-workers}/etcdbrctl"
if [[ ! -d $tools ]]; then
  echo "reference-peers.sh: no $tools: the tests that run the reference etcdbrctl will skip" >&2
  exit 0
fi
mkdir -p "$cache"
for version in v0.23.0 v0.40.0; do
  packed=$(ls "$tools"/etcdbrctl-"$version"*.xz 2>/dev/null | head -n 1 || true)
  [[ -n $packed ]] || { echo "reference-peers.sh: no etcdbrctl $version in $tools" >&2; continue; }
  out="$cache/$(basename "$packed" .xz)"
  if [[ ! -x $out || $packed -nt $out ]]; then
    xz -dc "$packed" >"$out.tmp" && chmod 0755 "$out.tmp" && mv "$out.tmp" "$out"
  fi
  var=ETCDBRCTL_${version//./_}
  var=${var^^}
  echo "export $var=$(printf %q "$out")"
  echo "reference-peers.sh: $var=$out" >&2
done
