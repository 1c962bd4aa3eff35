#!/usr/bin/env bash
# The image etcd-druid runs (the Dockerfile's `etcdbrctl` target, docs/image.md), built beside the
# image IMAGE that .ci/image.sh made, as <IMAGE>-etcdbrctl, with the reference etcdbrctl build of
# ../shared/tools/ (.ci/reference-peers.sh) as its binary: a one-file local image holds it, so no
# registry is asked. Then a smoke run: `etcdbrctl --version` reaches that binary, and `etcdbrctl
# compact` with etcd-druid's compaction Job arguments (integration-tests' test data) runs this
# project's compaction on a Local store mounted where etcd-druid mounts it, /home/nonroot/<container>.
# Without the reference build it says so and builds nothing (exit 0).
#
#   bash .ci/image-etcdbrctl.sh localhost/etcd-workers:dev
set -euo pipefail
cd "$(dirname "$0")/.."
image=${1:?usage: image-etcdbrctl.sh IMAGE}
say() { echo ".ci/image-etcdbrctl.sh: $*" >&2; }
trap 'say "FAILED (line $LINENO)"' ERR
export CONTAINERS_CONF=${CONTAINERS_CONF:-$PWD/.ci/containers.conf}

eval "$(bash .ci/reference-peers.sh 2>/dev/null)"
if [[ -z ${ETCDBRCTL_V0_40_0:-} ]]; then
  say "no reference etcdbrctl (.ci/reference-peers.sh): the etcdbrctl image is not built or checked"
  exit 0
fi
started=$SECONDS
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# etcdbrctl's own image is distroless with the binary at /etcdbrctl: the same, from scratch
mkdir "$work/binary"
cp "$ETCDBRCTL_V0_40_0" "$work/binary/etcdbrctl"
printf 'FROM scratch\nCOPY etcdbrctl /etcdbrctl\nENTRYPOINT ["/etcdbrctl"]\n' >"$work/binary/Containerfile"
binary_image=localhost/etcdbrctl-reference:v0.40.0
podman build --quiet --tag "$binary_image" "$work/binary" >/dev/null
target="$image-etcdbrctl"
podman build --quiet --build-arg BASE_IMAGE=localhost/etcd-workers-base:bookworm \
  --build-arg BUILDER_IMAGE=localhost/etcd-workers-base:bookworm --build-arg JARS=prebuilt \
  --build-arg ETCDBRCTL_IMAGE="$binary_image" --target etcdbrctl --tag "$target" . >/dev/null
say "image $target built in $((SECONDS - started)) s"

# --version: etcd-backup-restore's binary, through the entrypoint
version=$(podman run --rm "$target" --version 2>&1)
grep -q "etcd-backup-restore Version: v0.40.0" <<<"$version" \
  || { say "etcdbrctl --version did not reach the binary: $version"; exit 1; }

# compact with etcd-druid's arguments, as its compaction Job runs the image: no command, the image's
# user (uid 65532, HOME /home/nonroot), the Local store's hostPath at /home/nonroot/<container>, an
# emptyDir at /var/etcd/data. No API server here, so the Lease renewal is switched off (the pod ITs
# renew it through a mock API server); every other argument is the test data's.
mkdir -p "$work/store/etcd-main" "$work/data"
cp -r testdata/etcdbr-v0.41.2/gzip/. "$work/store/etcd-main/"
chown -R 65532:65532 "$work/store" "$work/data"
mapfile -t args < <(sed 's/^--enable-snapshot-lease-renewal=true$/--enable-snapshot-lease-renewal=false/' \
  integration-tests/src/test/resources/DruidArgsContractTest/compaction-local/args)
before=$(ls "$work/store/etcd-main/v2" | wc -l)
if ! podman run --rm --memory 1g --memory-swap 1g --network host -e POD_NAMESPACE=shoot--p--s \
  -e STORAGE_CONTAINER=local-bkt -v "$work/store:/home/nonroot/local-bkt" -v "$work/data:/var/etcd/data" \
  "$target" "${args[@]}" >"$work/result.json" 2>"$work/stderr.txt"; then
  say "etcdbrctl compact with etcd-druid's arguments failed: $(cat "$work/result.json") $(tail -n 20 "$work/stderr.txt")"
  exit 1
fi
uploaded=$(grep -o '"uploaded": *{ *"name": *"[^"]*' "$work/result.json" | sed 's/.*"//')
[[ -n $uploaded && -f $work/store/$uploaded ]] \
  || { say "no uploaded snapshot in the mounted store: $(cat "$work/result.json")"; exit 1; }
[[ $(ls "$work/store/etcd-main/v2" | wc -l) -eq $((before + 1)) ]] \
  || { say "the store should hold one object more"; exit 1; }
grep -q "has no effect" "$work/stderr.txt" \
  || { say "no note on the arguments without effect: $(tail -n 20 "$work/stderr.txt")"; exit 1; }
[[ -d $work/data/compaction.etcd ]] || { say "the scratch dir is not druid's --data-dir"; exit 1; }
say "smoke run passed in $((SECONDS - started)) s: etcdbrctl --version reached the binary; etcdbrctl compact" \
  "with etcd-druid's arguments uploaded $uploaded"
