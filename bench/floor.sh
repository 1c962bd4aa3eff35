#!/usr/bin/env bash
# The floor of a verified full-snapshot-only restore, with etcd's own tools and no worker:
# decompress the snapshot, `etcdutl snapshot restore`, start etcd on the result, ask it for
# `endpoint hashkv`, stop it. Prints each step's wall time and etcd's peak RSS (VmHWM).
#
#   bench/floor.sh SNAPSHOT.gz [GOGC]      (etcd, etcdutl, etcdctl on PATH; etcd 3.5)
#
# docs/benchmarks.md#a-full-snapshot-alone-and-its-floor compares it with etcdbrctl v0.23.0.
set -euo pipefail
SNAPSHOT=$1
export GOGC=${2:-100}
WORK=$(mktemp -d)
CLIENT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
PEER=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
pid=
cleanup() { [[ -n $pid ]] && kill "$pid" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
now() { date +%s.%N; }
since() { echo "$1 $2" | awk '{printf "%.2f", $2 - $1}'; }

t0=$(now)
gzip -dc "$SNAPSHOT" > "$WORK/db"
t1=$(now)
etcdutl snapshot restore "$WORK/db" --data-dir "$WORK/d" --name default \
  --initial-cluster "default=http://127.0.0.1:$PEER" --initial-advertise-peer-urls "http://127.0.0.1:$PEER" \
  > "$WORK/etcdutl.log" 2>&1
t2=$(now)
etcd --data-dir "$WORK/d" --name default --listen-client-urls "http://127.0.0.1:$CLIENT" \
  --advertise-client-urls "http://127.0.0.1:$CLIENT" --listen-peer-urls "http://127.0.0.1:$PEER" \
  --initial-advertise-peer-urls "http://127.0.0.1:$PEER" --initial-cluster "default=http://127.0.0.1:$PEER" \
  --heartbeat-interval=10 --election-timeout=100 --unsafe-no-fsync > "$WORK/etcd.log" 2>&1 &
pid=$!
until etcdctl --endpoints="127.0.0.1:$CLIENT" --dial-timeout=100ms --command-timeout=100ms endpoint status \
    > /dev/null 2>&1; do
  kill -0 "$pid" 2>/dev/null || { cat "$WORK/etcd.log" >&2; exit 1; }
  sleep 0.01
done
t3=$(now)
hash=$(etcdctl --endpoints="127.0.0.1:$CLIENT" endpoint hashkv -w simple)
t4=$(now)
hwm=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
kill "$pid"; wait "$pid" || true; pid=
t5=$(now)
echo "gunzip_s=$(since "$t0" "$t1") etcdutl_s=$(since "$t1" "$t2") etcd_start_s=$(since "$t2" "$t3")" \
  "hashkv_s=$(since "$t3" "$t4") stop_s=$(since "$t4" "$t5") total_s=$(since "$t0" "$t5")" \
  "etcd_peak_rss_kb=$hwm GOGC=$GOGC hashkv=${hash##* }"
