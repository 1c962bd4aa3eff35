#!/usr/bin/env bash
# Where the worker's time and memory go during a replay (docs/benchmarks.md#how-to-reproduce).
#
#   bench/profile.sh BUCKET_NAME [SAMPLES]     e.g. bench/profile.sh 300k 30
#
# Runs one restore by the replay engine (default policy, WAL on disk) of
# $BENCH_DATA/buckets/BUCKET_NAME with native memory tracking on, and once the replay runs:
# SAMPLES thread dumps one second apart (which frames the replay threads are in), the CPU each
# JVM thread and etcd used over that window (from /proc/<pid>/task/*/stat), and the JVM's native
# memory summary. Output: $BENCH_DATA/profile-BUCKET_NAME/.
# Profiling perturbs the run: its timings are not benchmark numbers.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DATA=${BENCH_DATA:-/work/bench-data}
NAME=$1
SAMPLES=${2:-20}
OUT=$DATA/profile-$NAME
WORK=$DATA/work/profile-$NAME
rm -rf "$OUT" "$WORK"; mkdir -p "$OUT" "$WORK"
# shellcheck disable=SC2086
java ${WORKER_JAVA_OPTS:-} -XX:NativeMemoryTracking=summary -jar "$ROOT/restore-worker/target/restore-worker.jar" restore \
  --storage-provider=Local --store-container="$DATA/buckets/$NAME/bucket" --data-dir="$WORK/data" \
  --scratch-dir="$WORK/scratch" --progress-interval=1s --engine=replay > "$OUT/result.json" 2> "$OUT/worker.log" &
JVM=$!
until grep -q "replay deltas=" "$OUT/worker.log" 2>/dev/null; do
  kill -0 "$JVM" 2>/dev/null || { echo "the worker exited before its replay started: $OUT/worker.log" >&2; exit 1; }
  sleep 0.5
done
ETCD=$(pgrep -P "$JVM" -x etcd | head -1)
thread_cpu() { # pid -> "tid name ticks" lines
  for t in /proc/"$1"/task/*; do
    awk -v tid="${t##*/}" '{ s=$0; sub(/^[^)]*\) /, "", s); split(s, f, " "); n=$0; sub(/^[^(]*\(/, "", n); sub(/\).*/, "", n); print tid, n, f[12]+f[13] }' "$t/stat" 2>/dev/null || true
  done
}
thread_cpu "$JVM" > "$OUT/threads-before.txt"; thread_cpu "$ETCD" > "$OUT/etcd-before.txt"
date +%s.%N > "$OUT/window-start"
for i in $(seq "$SAMPLES"); do
  jcmd "$JVM" Thread.print > "$OUT/stack-$i.txt" 2>/dev/null || break
  sleep 1
done
date +%s.%N > "$OUT/window-end"
thread_cpu "$JVM" > "$OUT/threads-after.txt"; thread_cpu "$ETCD" > "$OUT/etcd-after.txt"
jcmd "$JVM" VM.native_memory summary > "$OUT/nmt.txt" 2>/dev/null || true
wait "$JVM" || echo "worker exited with $?" >&2
rm -rf "$WORK"
# per-thread CPU over the window, busiest first
join -j1 <(awk '{print $1" "$2" "$3}' "$OUT/threads-before.txt" | sort) <(awk '{print $1" "$3}' "$OUT/threads-after.txt" | sort) \
  | awk '{printf "%-28s %6.2f s\n", $2, ($4-$3)/100}' | sort -k2 -nr | head -15 > "$OUT/thread-cpu.txt"
echo "etcd CPU in window: $(( $(awk '{s+=$3} END {print s}' "$OUT/etcd-after.txt") - $(awk '{s+=$3} END {print s}' "$OUT/etcd-before.txt") )) ticks" >> "$OUT/thread-cpu.txt"
echo "window: $(echo "$(cat "$OUT/window-end") - $(cat "$OUT/window-start")" | bc) s" >> "$OUT/thread-cpu.txt"
# what the replay threads were doing: state, top frame, and the first frame of our code
for t in main delta-decode; do
  echo "== $t over $SAMPLES samples: state | top frame | first io.etcdworkers frame"
  for f in "$OUT"/stack-*.txt; do
    awk -v t="\"$t\"" '
      $1 == t { on = 1; top = ""; ours = ""; state = ""; next }
      on && /java.lang.Thread.State/ { state = $2 }
      on && /^[ \t]+at / { f = $2; sub(/\(.*/, "", f); if (top == "") top = f; if (ours == "" && f ~ /^io\.etcdworkers/) ours = f }
      on && /^$/ { print state " | " top " | " ours; on = 0 }' "$f"
  done | sort | uniq -c | sort -nr | head -12
done > "$OUT/frames.txt"
cat "$OUT/thread-cpu.txt" "$OUT/frames.txt"
grep -E "Total|Java Heap|Class|Thread|Code|GC|Internal|Other|Symbol|Arena" "$OUT/nmt.txt" | head -20 || true
