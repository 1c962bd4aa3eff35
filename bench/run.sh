#!/usr/bin/env bash
# Runs the benchmarks of docs/benchmarks.md.
#
#   bench/run.sh small   30,000 events: every configuration, a few minutes (a smoke run)
#   bench/run.sh one restore|compact 300k policy|nopolicy|offline disk|tmpfs [jvm128m]   one run, re-measured
#                (BENCH_CGROUP_LIMIT=400M: inside a memory cgroup with that limit, as a pod's limit)
#   bench/run.sh plot-engines   charts of the replay against the offline engine (runs made with "one")
#   bench/run.sh full    30k and 300k: every configuration, plus 300k with a container-sized JVM;
#                        1M: default policy, WAL on disk (FULL_1M_ALL=1: every configuration);
#                        every size also with the offline engine (and 300k inside a 400 MiB cgroup)
#
# Builds the worker and the harness, generates the buckets once (cached under $BENCH_DATA),
# measures the raw sequential-txn ceiling (WAL on disk and on tmpfs), runs the restore worker
# with the default defragmentation policy and with it off, WAL on disk and on tmpfs, draws the
# charts into docs/img/ and prints the Markdown tables (also saved to $BENCH_DATA/results.md).
# Buckets and run outputs stay out of git, under $BENCH_DATA.
#
# Environment:
#   BENCH_DATA       where buckets, runs and scratch dirs go (default /work/bench-data)
#   BENCH_TMPFS      a tmpfs dir for the WAL runs (default /dev/shm/etcd-bench)
#   CEILING_TXNS     transactions of each ceiling measurement (default: 30000 small, 100000 full)
#   WORKER_JAVA_OPTS extra JVM flags for the worker (default none: the JVM's own defaults)
#   SKIP_BUILD=1     use the jars already built
set -euo pipefail

MODE=${1:-small}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DATA=${BENCH_DATA:-/work/bench-data}
TMPFS=${BENCH_TMPFS:-/dev/shm/etcd-bench}
WORKER_JAVA_OPTS=${WORKER_JAVA_OPTS:-}
WORKER_JAR=$ROOT/restore-worker/target/restore-worker.jar
BENCH_JAR=$ROOT/benchmark/target/benchmark.jar
# run_compact measures the compaction worker's jar
COMPACT_JAR=$ROOT/compaction-worker/target/compaction-worker.jar

bench() { java -jar "$BENCH_JAR" "$@"; }
note_load() { echo "$(date -Is) $1: $(uptime)" | tee -a "$DATA/uptime.log" >&2; }

build() {
  if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    # -am: with the modules they are built on (worker-cli and the layers below it)
    (cd "$ROOT" && mvn -B -ntp -q -Pbenchmark -DskipTests package -pl restore-worker,compaction-worker,benchmark -am)
  fi
}

machine() {
  {
    echo "date: $(date -Is)"
    echo "nproc: $(nproc)"
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs)"
    free -m | sed 's/^/memory: /'
    df -h "$DATA" /dev/shm | sed 's/^/disk: /'
    echo "etcd: $(etcd --version | head -1)"
    echo "java: $(java -version 2>&1 | head -1)"
    echo "uptime: $(uptime)"
  } > "$DATA/machine.txt"
  cat "$DATA/machine.txt" >&2
}

# generate NAME EVENTS: a bucket, unless it is already there
generate() {
  local dir=$DATA/buckets/$1
  if [[ ! -f $dir/expected.json ]]; then
    rm -rf "$dir"
    note_load "generate $1 before"
    bench generate --out "$dir" --events "$2" 2>/dev/null > /dev/null
    note_load "generate $1 after"
  fi
  echo "bucket $1: $(tr -d '\n' < "$dir/expected.json")" >&2
}

# ceiling NAME [WALDIR]
ceiling() {
  local out=$DATA/ceilings/ceiling-$1.json
  mkdir -p "$DATA/ceilings"
  note_load "ceiling $1 before"
  bench ceiling --bucket-out "$DATA/buckets/$CEILING_BUCKET" --txns "$CEILING_TXNS" \
      --scratch-dir "$DATA/work/ceiling" ${2:+--wal-dir "$2"} --out "$out" 2>/dev/null > /dev/null
  note_load "ceiling $1 after"
  echo "ceiling $1: $(tr -d '\n' < "$out")" >&2
}

# A JVM sized as in a Job with a 512 MiB memory limit on <= 2 CPUs: there the JVM itself would pick
# the serial collector and a heap of 25 % of the limit.

# policy_flags POLICY WAL: the worker flags of a configuration (defragmentation off, WAL on tmpfs)
policy_flags() {
  # "policy" and "nopolicy" are the replay engine with and without defragmentation; "offline" the offline engine
  [[ $1 == offline ]] && echo --engine=offline || echo --engine=replay
  [[ $1 == nopolicy ]] && echo --defrag-every-events=0 --defrag-db-size-bytes=0 --defrag-fragmentation-ratio=0
  [[ $2 == tmpfs ]] && { mkdir -p "$TMPFS"; echo --scratch-wal-dir="$TMPFS"; }
  return 0
}

# measure LABEL WORK DB_FILE BUCKET JAVA_OPTS -- WORKER ARGS...: one sampled worker run.
# With BENCH_CGROUP_LIMIT (e.g. 400M) the worker and its etcd run in a memory cgroup with that
# limit (what a pod's memory limit is), and the cgroup's own accounting goes to cgroup.txt.
measure() {
  local label=$1 work=$2 db=$3 bucket=$4 java_opts=$5; shift 6
  local out=$DATA/runs/$label status=0 wrap=() cg=
  if [[ -n ${BENCH_CGROUP_LIMIT:-} ]]; then
    cg=/sys/fs/cgroup/memory/etcd-bench-$label
    mkdir -p "$cg"
    echo "$BENCH_CGROUP_LIMIT" > "$cg/memory.limit_in_bytes"
    # the shell joins the cgroup, then becomes the worker: the JVM and its etcd are charged to it
    wrap=(sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$cg")
  fi
  note_load "$label before"
  # shellcheck disable=SC2086 # java_opts is a list of flags
  bench run --label "$label" --out "$out" --db-file "$db" \
      --expected "$DATA/buckets/$bucket/expected.json" -- \
      /usr/bin/time -v -o "$out/time.txt" \
      "${wrap[@]}" java $java_opts "-Xlog:gc:file=$out/gc.log:uptime" -jar "$@" \
      > "$out.stdout" 2>&1 || status=$?
  note_load "$label after"
  if [[ -n $cg ]]; then
    {
      echo "limit_in_bytes $(cat "$cg/memory.limit_in_bytes")"
      echo "max_usage_in_bytes $(cat "$cg/memory.max_usage_in_bytes")"
      echo "failcnt $(cat "$cg/memory.failcnt")"
      grep -E 'oom_kill|under_oom' "$cg/memory.oom_control"
    } > "$out/cgroup.txt"
    rmdir "$cg" 2>/dev/null || true
  fi
  if [[ $status != 0 ]]; then
    echo "!!!!! $label FAILED (exit $status): see $out/worker.log and $out.stdout" >&2
    grep -h MISMATCH "$out.stdout" >&2 || true
  fi
}

# fresh_dirs LABEL: empties the run's output and work dirs, prints the work dir
fresh_dirs() {
  rm -rf "$DATA/runs/$1" "$DATA/work/$1"
  mkdir -p "$DATA/work/$1" "$DATA/runs"
  echo "$DATA/work/$1"
}

# container_jvm JVM: the JVM flags of a Job whose heap is JVM (jvm128m: -Xmx128m, the launcher's
# 25 % of a 512Mi limit; jvm100m: of a 400Mi limit); nothing for ""
container_jvm() {
  [[ $1 == jvm*m ]] && echo "-XX:+UseSerialGC -Xmx${1#jvm} -Xms8m"
  return 0
}

# label_of KIND BUCKET POLICY WAL JVM: the run's name (with -cgLIMIT when run in a memory cgroup)
label_of() {
  echo "$1-$2-$3-$4${5:+-$5}${BENCH_CGROUP_LIMIT:+-cg$BENCH_CGROUP_LIMIT}"
}

# run_restore BUCKET POLICY(policy|nopolicy|offline) WAL(disk|tmpfs) [jvm128m|jvm100m...]
run_restore() {
  local bucket=$1 policy=$2 wal=$3 jvm=${4:-}
  local label java_opts work
  label=$(label_of restore "$bucket" "$policy" "$wal" "$jvm")
  java_opts="$WORKER_JAVA_OPTS $(container_jvm "$jvm")"
  work=$(fresh_dirs "$label")
  # shellcheck disable=SC2046 # policy_flags prints separate flags
  measure "$label" "$work" "$work/scratch/restore-*/verify.etcd/member/snap/db" "$bucket" "$java_opts" -- \
      "$WORKER_JAR" restore --storage-provider=Local --store-container="$DATA/buckets/$bucket/bucket" \
      --data-dir="$work/data" --scratch-dir="$work/scratch" --progress-interval=1s $(policy_flags "$policy" "$wal")
  rm -rf "$work"
}

# run_compact BUCKET [POLICY] [WAL] [JVM]: the same sampling around the compaction worker
run_compact() {
  local bucket=$1 policy=${2:-policy} wal=${3:-disk} jvm=${4:-}
  local label java_opts work
  label=$(label_of compact "$bucket" "$policy" "$wal" "$jvm")
  java_opts="$WORKER_JAVA_OPTS $(container_jvm "$jvm")"
  work=$(fresh_dirs "$label")
  # hard links: the compaction only adds one new object, the cached bucket stays as it was
  cp -al "$DATA/buckets/$bucket/bucket" "$work/bucket"
  # shellcheck disable=SC2046 # policy_flags prints separate flags
  measure "$label" "$work" "$work/scratch/restore-*/verify.etcd/member/snap/db" "$bucket" "$java_opts" -- \
      "$COMPACT_JAR" compact --storage-provider=Local --store-container="$work/bucket" \
      --scratch-dir="$work/scratch" --progress-interval=1s $(policy_flags "$policy" "$wal")
  ls -l "$work/bucket/v2" | grep ' Full-' | tail -1 | tee "$DATA/runs/$label/uploaded.txt" >&2
  rm -rf "$work"
}

# one KIND BUCKET POLICY WAL: a single run, for re-measuring one configuration
if [[ ${1:-} == one ]]; then
  build
  mkdir -p "$DATA"
  "run_$2" "$3" "$4" "$5" "${6:-}"
  exit 0
fi

# plot BUCKET: one set of charts per WAL placement (policy against no policy), plus the JVM variant
plot() {
  local bucket=$1
  for w in disk tmpfs; do
    local -a runs=()
    for p in policy nopolicy; do runs+=(--run "$p=$DATA/runs/restore-$bucket-$p-$w"); done
    [[ $w == disk ]] && runs+=(--run "policy, JVM 128m=$DATA/runs/restore-$bucket-policy-disk-jvm128m")
    bench plot --title "restore $bucket, WAL on $w" --prefix "$ROOT/docs/img/restore-$bucket-$w" "${runs[@]}" > /dev/null
  done
}

# plot_engines BUCKET: the replay (default policy) against the offline engine, restore and compaction
plot_engines() {
  local bucket=$1
  bench plot --title "$bucket events: replay vs offline engine (WAL on disk)" \
      --prefix "$ROOT/docs/img/engines-$bucket" \
      --run "restore, replay=$DATA/runs/restore-$bucket-policy-disk" \
      --run "compact, replay=$DATA/runs/compact-$bucket-policy-disk" \
      --run "restore, offline, JVM 100m=$DATA/runs/restore-$bucket-offline-disk-jvm100m" \
      --run "compact, offline, JVM 100m=$DATA/runs/compact-$bucket-offline-disk-jvm100m" > /dev/null
}

if [[ ${1:-} == plot-engines ]]; then
  plot_engines 300k
  plot_engines 1m
  exit 0
fi

mkdir -p "$DATA"
build
machine
case $MODE in
  small) SIZES=(30k); CEILING_TXNS=${CEILING_TXNS:-30000} ;;
  full) SIZES=(30k 300k 1m); CEILING_TXNS=${CEILING_TXNS:-100000} ;;
  *) echo "usage: $0 [small|full]" >&2; exit 2 ;;
esac
declare -A EVENTS=([30k]=30000 [300k]=300000 [1m]=1000000)
for s in "${SIZES[@]}"; do generate "$s" "${EVENTS[$s]}"; done
# Every bucket has the same base (same seed, same seeding): the smallest one serves the ceiling.
CEILING_BUCKET=30k
df -h /dev/shm >&2
ceiling disk
mkdir -p "$TMPFS"
ceiling tmpfs "$TMPFS"
for s in "${SIZES[@]}"; do
  if [[ $s == 1m && "${FULL_1M_ALL:-0}" != 1 ]]; then
    run_restore "$s" policy disk
  else
    for p in policy nopolicy; do for w in disk tmpfs; do run_restore "$s" "$p" "$w"; done; done
    [[ $MODE == full && $s == 300k ]] && run_restore "$s" policy disk jvm128m
  fi
  run_compact "$s"
  # the default engine, with the JVM the launcher gives a 400Mi Job, and once inside a 400 MiB cgroup
  run_restore "$s" offline disk jvm100m
  run_compact "$s" offline disk jvm100m
  if [[ $s == 300k ]]; then
    BENCH_CGROUP_LIMIT=400M run_restore "$s" offline disk jvm100m
    BENCH_CGROUP_LIMIT=400M run_compact "$s" offline disk jvm100m
  fi
  plot "$s"
  [[ $s != 30k ]] && plot_engines "$s"
done
bench table --runs "$DATA/runs" --ceilings "$DATA/ceilings" | tee "$DATA/results.md"
