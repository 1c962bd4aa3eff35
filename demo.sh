#!/usr/bin/env bash
# The demo: restore and compact a realistic etcd backup on this machine, no Kubernetes needed.
#
#   ./demo.sh            (DEMO_EVENTS=50000 ./demo.sh for a bigger history)
#
# 1. installs etcd when it is missing (Debian packages, when run as root; otherwise says what to
#    install), 2. builds the jars, 3. generates a sample backup in a local directory: a real etcd
#    snapshot of Kubernetes-like keys plus deltas written with the project's own bucket writer,
# 4. runs verify-backup, the restore and the compaction on it, 5. prints what happened and where
#    the restored data dir and the new full snapshot are. Running it again starts over.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$PWD
OUT=${DEMO_OUT:-$ROOT/demo-output}
EVENTS=${DEMO_EVENTS:-20000}
SEED_KEYS=${DEMO_SEED_KEYS:-5000}

say() { printf '\n== %s\n' "$*"; }
die() { printf 'demo: %s\n' "$*" >&2; exit 1; }

# --- 1. what the demo needs -------------------------------------------------------------------
command -v java >/dev/null || die "Java 17 is missing: apt-get install openjdk-17-jdk-headless"
command -v mvn >/dev/null || die "Maven is missing: apt-get install maven"
if ! command -v etcd >/dev/null || ! command -v etcdctl >/dev/null; then
  if [[ $(id -u) == 0 ]]; then
    say "installing etcd (Debian packages etcd-server, etcd-client)"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq etcd-server etcd-client >/dev/null
  else
    die "etcd is missing: run 'sudo apt-get install etcd-server etcd-client' (or put etcd, etcdctl on PATH), then ./demo.sh again"
  fi
fi
echo "using $(etcd --version | head -1)"

# --- 2. build -----------------------------------------------------------------------------------
say "building (mvn package, tests skipped: run .ci/run for those)"
mvn -B -q -ntp -Pbenchmark -DskipTests package
# the workers as the README starts them: their start scripts, which pass the JVM options of
# worker-jvm.options (a small serial-collected heap, the fold spills past it; C2 for what is hot)
RESTORE_WORKER=$ROOT/bin/restore-worker
COMPACTION_WORKER=$ROOT/bin/compaction-worker
BENCH_JAR=$ROOT/benchmark/target/benchmark.jar

# --- 3. a sample backup -------------------------------------------------------------------------
rm -rf "$OUT"
mkdir -p "$OUT/logs"
say "generating a sample backup: $SEED_KEYS keys in a real etcd snapshot, then $EVENTS events in deltas"
java -jar "$BENCH_JAR" generate --out "$OUT/sample" --events "$EVENTS" --seed-keys "$SEED_KEYS" \
  > "$OUT/logs/generate.out" 2> "$OUT/logs/generate.log" || { tail -20 "$OUT/logs/generate.log"; die "generation failed"; }
BUCKET=$OUT/sample/bucket
ls "$BUCKET/v2" | sed 's/^/  /' | head -5; echo "  ... $(ls "$BUCKET/v2" | wc -l) objects in $BUCKET/v2"

# field NAME FILE: the first value of "NAME" in a one-line JSON object (no jq needed)
field() { sed -n "s/.*\"$1\" *: *\"\{0,1\}\([^\",}]*\)\"\{0,1\}.*/\1/p" "$2" | head -1; }

# run_measured LOG RESULT CMD...: runs CMD, samples the RSS of its whole process tree (JVM + etcd)
run_measured() {
  local log=$1 result=$2; shift 2
  "$@" > "$result" 2> "$log" &
  local pid=$! peak=0
  while kill -0 "$pid" 2>/dev/null; do
    local sum=0 p
    for p in $pid $(pgrep -P "$pid" 2>/dev/null) $(for c in $(pgrep -P "$pid" 2>/dev/null); do pgrep -P "$c"; done); do
      local kb; kb=$(awk '/^VmRSS/ {print $2}' "/proc/$p/status" 2>/dev/null || echo 0)
      sum=$((sum + ${kb:-0}))
    done
    (( sum > peak )) && peak=$sum
    sleep 0.2
  done
  local rc=0; wait "$pid" || rc=$?
  echo $((peak / 1024)) > "$result.peak-mb"
  return $rc
}

# --- 4. verify, restore, compact ----------------------------------------------------------------
say "verify-backup: reading every object a restore would use"
"$RESTORE_WORKER" verify-backup --store-container "$BUCKET" > "$OUT/verify.json" 2> "$OUT/logs/verify.log" \
  || { tail -5 "$OUT/logs/verify.log"; die "verify-backup failed: see $OUT/verify.json"; }
echo "  ok: base $(field name "$OUT/verify.json"), $(field deltas "$OUT/verify.json") deltas, $(field events "$OUT/verify.json") events"

say "restore: folding the deltas into the base, then a real etcd verifies the result (progress below)"
run_measured "$OUT/logs/restore.log" "$OUT/restore.json" \
  "$RESTORE_WORKER" restore --store-container "$BUCKET" --data-dir "$OUT/restored/new.etcd" \
  --scratch-dir "$OUT/scratch" --progress-interval 2s &
RUN=$!
sleep 1; tail -n +1 -f "$OUT/logs/restore.log" --pid=$RUN 2>/dev/null | grep --line-buffered -E "offline fold deltas=|replay deltas=|compacted and|verified revision|restore done" || true
wait $RUN || { tail -20 "$OUT/logs/restore.log"; die "restore failed: see $OUT/restore.json"; }

say "compaction: the same restore in a scratch dir, then one new full snapshot uploaded into the bucket"
cp -r "$BUCKET" "$OUT/compacted-bucket"
run_measured "$OUT/logs/compact.log" "$OUT/compact.json" \
  "$COMPACTION_WORKER" compact --store-container "$OUT/compacted-bucket" --scratch-dir "$OUT/scratch" \
  || { tail -20 "$OUT/logs/compact.log"; die "compaction failed: see $OUT/compact.json"; }

# --- 5. summary -------------------------------------------------------------------------------------
EXPECTED=$OUT/sample/expected.json
R=$OUT/restore.json
C=$OUT/compact.json
grep -o '"uploaded":{[^}]*}' "$C" > "$OUT/uploaded.json" || true
match="NO (see $R and $EXPECTED)"
[[ $(field metaSha256 "$R") == "$(field metaSha256 "$EXPECTED")" && $(field kvSha256 "$R") == "$(field kvSha256 "$EXPECTED")" ]] && match=yes
cat <<EOF

== summary
restored     $(field deltas "$R") deltas ($(field events "$R") events, $(field revisions "$R") revisions) on top of $(field name "$R")
revision     $(field finalRevision "$R"), $(field keys "$R") keys
identical to the generator's expected state (values, revisions, versions, leases): $match
engine       $(field engine "$R") (--engine=replay replays every revision into a scratch etcd instead)
time         restore $(field durationSeconds "$R") s, compaction $(field durationSeconds "$C") s
memory       peak of worker + etcd: restore $(cat "$R.peak-mb") MB, compaction $(cat "$C.peak-mb") MB
data dir     $OUT/restored/new.etcd   (start it: etcd --data-dir $OUT/restored/new.etcd)
new snapshot $OUT/compacted-bucket/$(field name "$OUT/uploaded.json")  ($(field size "$OUT/uploaded.json") bytes, $(field compression "$OUT/uploaded.json"), database $(field dbSizeAfterCompaction "$C") bytes)
results      $OUT/{verify,restore,compact}.json, logs in $OUT/logs/
EOF
[[ $match == yes ]] || exit 1
