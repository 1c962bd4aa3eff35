#!/usr/bin/env bash
# Measures the launcher's memory sizing (--memory-limit=auto) against the kernel, in containers of
# the image, on the benchmark buckets (docs/tuning.md, "The rule, checked by the kernel").
#
#   bench/sizing.sh [NAME...]     default: 300k keys300k keys3m events3m
#
# For each bucket, `restore --memory-limit=auto --wait` runs against the pod ITs' mock API server:
# the sizing Job it renders runs in a container (podman, the rendered pod's own args and its
# 512Mi limit) and names a limit; the restore Job it then renders runs at exactly that limit and
# must reach the generator's expected.json (kvSha256, metaSha256, revision, keys); then the same
# rendered restore at one sizing step (64 MiB) less, which either passes (exact) or is OOM-killed
# by the kernel (137).
# The peak of each container's memory cgroup is read while it runs. One Markdown row per bucket
# goes to $BENCH_DATA/sizing/results.md (and stdout).
#
# Buckets missing under $BENCH_DATA/buckets are generated first (benchmark module's `generate`;
# the times measured on 2 cores loaded by other builds):
#   300k      --events 300000                                     (2-4 min, 0.5 GB)
#   keys300k  --seed-keys 300000 --events 100000 --small-values  (3 min, 13 MB)
#   keys3m    --seed-keys 3000000 --events 100000 --small-values (22 min, 87 MB)
#   events3m  --events 3000000                                    (14 min, 4.8 GB: check the disk)
# How long: the Maven build of the test modules (1-8 min), then per bucket three containers (the
# sizing pod, the restore twice): 2 min for 300,000 keys, 3 min for 300,000 events, 11 min for
# 3,000,000 keys, 9 min for 3,000,000 events on that loaded machine (the times move with the
# load; the memory hardly does).
#
# Needs podman and the image: ETCD_WORKERS_IMAGE (else `bash .ci/image.sh` builds it, under
# ETCD_WORKERS_IMAGE_NAME or its default localhost/etcd-workers:dev). SKIP_BUILD=1 uses the jars
# already built. Everything it writes stays under $BENCH_DATA (default /work/bench-data).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DATA=${BENCH_DATA:-/work/bench-data}
NAMES=("$@")
[[ ${#NAMES[@]} -gt 0 ]] || NAMES=(300k keys300k keys3m events3m)
cd "$ROOT"
export CONTAINERS_CONF=${CONTAINERS_CONF:-$ROOT/.ci/containers.conf}

generate_args() {
  case $1 in
    300k) echo "--events 300000" ;;
    keys300k) echo "--seed-keys 300000 --events 100000 --small-values" ;;
    keys3m) echo "--seed-keys 3000000 --events 100000 --small-values" ;;
    events3m) echo "--events 3000000" ;;
    *) echo "unknown bucket $1 (300k keys300k keys3m events3m)" >&2; return 1 ;;
  esac
}

if [[ ${SKIP_BUILD:-0} != 1 ]]; then
  mvn -B -ntp -q -Pbenchmark -DskipTests package -pl restore-worker,compaction-worker,job-launcher,benchmark -am
fi
if [[ -z ${ETCD_WORKERS_IMAGE:-} ]]; then
  ETCD_WORKERS_IMAGE=$(JARS=prebuilt bash .ci/image.sh | tail -1)
fi
export ETCD_WORKERS_IMAGE

buckets=()
for name in "${NAMES[@]}"; do
  dir=$DATA/buckets/$name
  if [[ ! -f $dir/expected.json ]]; then
    args=$(generate_args "$name")
    echo "generating $name ($args): $(df -h --output=avail "$DATA" | tail -1) free, $(uptime)" >&2
    rm -rf "$dir"
    # shellcheck disable=SC2086
    java -jar benchmark/target/benchmark.jar generate --out "$dir" $args > /dev/null
  fi
  echo "bucket $name: $(tr -d '\n ' < "$dir/expected.json")" >&2
  buckets+=("$dir")
done

mkdir -p "$DATA/sizing"
out=$DATA/sizing/results.md
{
  echo
  echo "<!-- $(date -Is), $(nproc) cores, $(uptime | sed 's/.*load/load/'), image $ETCD_WORKERS_IMAGE -->"
  echo "| bucket | expected | sizing Job's estimate | sizing pod (512Mi) | limit rendered | restore at the limit | launcher | one step below | restore there |"
  echo "|---|---|---|---|---|---|---|---|---|"
} >> "$out"
# the restore in the image uses the etcd the image ships; -am builds the modules the test needs
mvn -B -ntp -q -o verify -pl integration-tests -am \
  -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false \
  -Dit.test=SizingBench -DskipITs=false -Dfailsafe.rerunFailingTestsCount=0 \
  -Dsizing.buckets="$(IFS=,; echo "${buckets[*]}")" -Dsizing.work="$DATA/sizing/work" -Dsizing.out="$out"
tail -n $((${#buckets[@]} + 3)) "$out"
