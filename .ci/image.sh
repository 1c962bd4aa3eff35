#!/usr/bin/env bash
# Builds the image from the Dockerfile with podman (runc; no registry, no Docker daemon), on a
# Debian bookworm base made here with mmdebstrap from Debian's packages (no registry has one for
# us) and cached; the jars are those of the checkout's last `mvn package` (JARS=prebuilt; built
# first when missing). Then a smoke run: the restore worker in the image, under the pod template's
# constraints, on a copy of testdata/etcdbr-v0.41.2/gzip, must reach that fixture's exact state.
# Prints the image name on its last line; everything else goes to stderr. Fails when podman cannot
# build or run a container.
#
#   ETCD_WORKERS_IMAGE=$(bash .ci/image.sh | tail -1)
#
# ETCD_WORKERS_IMAGE_NAME names the image (default localhost/etcd-workers:dev); the base's tar is
# kept in ${ETCD_CACHE_DIR:-~/.cache/etcd-workers}/image-base and made again after 7 days.
set -euo pipefail
cd "$(dirname "$0")/.."
exec 3>&1 1>&2
say() { echo ".ci/image.sh: $*"; }
trap 'say "FAILED (line $LINENO)"' ERR

export CONTAINERS_CONF=${CONTAINERS_CONF:-$PWD/.ci/containers.conf}
image=${ETCD_WORKERS_IMAGE_NAME:-localhost/etcd-workers:dev}
base=localhost/etcd-workers-base:bookworm
cache="${ETCD_CACHE_DIR:-$HOME/.cache/etcd-workers}/image-base"
tar="$cache/bookworm.tar"
for tool in podman mmdebstrap; do
  command -v "$tool" >/dev/null || { say "$tool is missing: apt-get install podman runc mmdebstrap"; exit 1; }
done

# --- the base: what debian:bookworm-slim is (minbase, no man pages, docs or locales), made here ----
# The base's apt trusts the archive as the host's does: a host whose apt reads a mirror snapshot,
# with Release files past their Valid-Until, turns those checks off (Acquire::Check-Valid-Until,
# Check-Date "false"); the base's apt, and so every apt-get update in the build, gets the same.
apt_options=()
while read -r option; do
  apt_options+=(--aptopt="$option")
done < <(apt-config dump | grep -E '^Acquire::Check-(Valid-Until|Date) "false";' || true)
started=$SECONDS
if [[ ! -f $tar || -n $(find "$tar" -mtime +7) ]]; then
  say "making the base with mmdebstrap (Debian bookworm, minbase) into $tar"
  mkdir -p "$cache"
  mmdebstrap --quiet --variant=minbase --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --aptopt='Acquire::Languages "none"' ${apt_options[@]+"${apt_options[@]}"} \
    bookworm "$cache/bookworm.new.tar" \
    "deb http://deb.debian.org/debian bookworm main" \
    "deb http://deb.debian.org/debian bookworm-updates main" \
    "deb http://deb.debian.org/debian-security bookworm-security main"
  mv "$cache/bookworm.new.tar" "$tar"
fi
stamp=$(stat -c %Y "$tar")
if [[ $(podman image inspect --format '{{index .Labels "etcd-workers.base"}}' "$base" 2>/dev/null) != "$stamp" ]]; then
  podman import --quiet --change "LABEL etcd-workers.base=$stamp" "$tar" "$base" >/dev/null
fi
say "base $base ready in $((SECONDS - started)) s"

# --- the jars and the image -------------------------------------------------------------------------
jars=(restore-worker/target/restore-worker.jar compaction-worker/target/compaction-worker.jar job-launcher/target/job-launcher.jar)
if ! ls "${jars[@]}" >/dev/null 2>&1; then
  say "building the jars (mvn -B -DskipTests package)"
  mvn -B -ntp -q -DskipTests package
fi
started=$SECONDS
build_started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
previous=$(podman image inspect --format '{{.Id}}' "$image" 2>/dev/null || true)
podman build --build-arg BASE_IMAGE="$base" --build-arg BUILDER_IMAGE="$base" --build-arg JARS=prebuilt --tag "$image" .
# the previous build of this name and the build-cache layers only it used: repeated runs would
# otherwise keep ~200 MB each (the jars and class archives)
if [[ -n $previous && $previous != $(podman image inspect --format '{{.Id}}' "$image") ]]; then
  podman rmi "$previous" >/dev/null 2>&1 || true
fi
# and the jars stages of earlier builds (the context and the jars, ~300 MB each); this build's
# stays as the next one's cache
podman image prune --force --filter label=io.etcd-workers.stage=jars --filter "until=$build_started" >/dev/null
say "image $image built in $((SECONDS - started)) s: $(podman image inspect --format '{{.Size}}' "$image") bytes"

# --- smoke: a restore as the launcher's Job runs it -----------------------------------------------
started=$SECONDS
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bucket" "$work/scratch" "$work/tmp" "$work/target"
cp -r testdata/etcdbr-v0.41.2/gzip "$work/bucket/etcdbr"
: >"$work/termination-log"
chown -R 65532:65532 "$work/scratch" "$work/tmp" "$work/target" "$work/termination-log"
# the pod template's securityContext, memory limit and volumes (JobFactory): no writable tmpfs
# (readOnlyRootFilesystem), host dirs for the emptyDirs and claims, the bucket read-only
if ! podman run --rm --read-only --read-only-tmpfs=false --user 65532:65532 --cap-drop ALL \
  --security-opt no-new-privileges --memory 512m --memory-swap 512m --network host \
  -v "$work/scratch:/scratch" -v "$work/tmp:/tmp" -v "$work/bucket:/var/etcd-bucket:ro" \
  -v "$work/target:/var/etcd/data" -v "$work/termination-log:/dev/termination-log" \
  --entrypoint java "$image" -XX:SharedArchiveFile=/app/restore-worker.jsa -jar /app/restore-worker.jar restore \
  --storage-provider=Local --store-container=/var/etcd-bucket/etcdbr --scratch-dir=/scratch \
  --data-dir=/var/etcd/data/new.etcd >"$work/result.json"; then
  say "smoke run: the restore in the image failed; its result: $(cat "$work/result.json")"
  exit 1
fi

# field NAME FILE: the first value of "NAME" in a JSON file (the result's one line, or state.json)
field() { grep -o "\"$1\": *\"\{0,1\}[^\",}]*" "$2" | head -n 1 | sed 's/.*: *"\{0,1\}//'; }
state=testdata/etcdbr-v0.41.2/expected/state.json
etcd_version=$(podman run --rm --entrypoint etcd "$image" --version | sed -n 's/^etcd Version: //p')
check() {
  [[ -n $3 && $2 == "$3" ]] || { say "smoke run: $1 is '$2', expected '$3'; result: $(cat "$work/result.json")"; exit 1; }
}
check finalRevision "$(field finalRevision "$work/result.json")" "$(field revision "$state")"
check keys "$(field keys "$work/result.json")" "$(field keys "$state")"
check kvSha256 "$(field kvSha256 "$work/result.json")" "$(field kv_sha256 "$state")"
check metaSha256 "$(field metaSha256 "$work/result.json")" "$(field meta_sha256 "$state")"
check verifiedBy "$(field verifiedBy "$work/result.json")" "etcd $etcd_version"
check "the termination message's outcome" "$(field outcome "$work/termination-log")" succeeded
check "stdout's line count (the result JSON alone)" "$(wc -l <"$work/result.json")" 1
check "the placed db's owner" "$(stat -c %u:%g "$work/target/new.etcd/member/snap/db")" 65532:65532
# the class archives serve the image's JVM and jars (-Xshare:on: no start without them)
for worker in restore-worker compaction-worker; do
  podman run --rm --read-only --read-only-tmpfs=false --entrypoint java "$image" -Xshare:on \
    "-XX:SharedArchiveFile=/app/$worker.jsa" -jar "/app/$worker.jar" --version >/dev/null
done
# the start scripts on PATH, and the default entrypoint (the launcher)
podman run --rm --read-only --read-only-tmpfs=false --entrypoint restore-worker "$image" --version >/dev/null
podman run --rm --read-only --read-only-tmpfs=false "$image" --version >/dev/null
# the etcdbrctl entry point without etcdbrctl's binary: compact and copy only, anything else refused
if podman run --rm --entrypoint etcdbrctl "$image" server >/dev/null 2>"$work/refused.txt" \
  || ! grep -q "no etcdbrctl binary" "$work/refused.txt"; then
  say "smoke run: etcdbrctl server without the binary was not refused: $(cat "$work/refused.txt")"
  exit 1
fi
say "smoke run passed in $((SECONDS - started)) s: revision $(field finalRevision "$work/result.json"), etcd $etcd_version," \
  "restore $(field durationSeconds "$work/result.json") s"
bash .ci/image-etcdbrctl.sh "$image"
echo "$image" >&3
