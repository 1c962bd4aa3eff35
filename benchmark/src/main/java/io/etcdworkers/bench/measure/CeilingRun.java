package io.etcdworkers.bench.measure;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import io.etcd.jetcd.api.DeleteRangeRequest;
import io.etcd.jetcd.api.KeyValue;
import io.etcd.jetcd.api.PutRequest;
import io.etcd.jetcd.api.RangeRequest;
import io.etcd.jetcd.api.RangeResponse;
import io.etcd.jetcd.api.RequestOp;
import io.etcd.jetcd.api.TxnRequest;
import io.etcdworkers.bench.generate.KeyState;
import io.etcdworkers.bench.generate.KeyspaceModel;
import io.etcdworkers.bench.generate.ValueSource;
import io.etcdworkers.bench.generate.WorkloadGenerator;
import io.etcdworkers.etcd.EmbeddedEtcd;
import io.etcdworkers.etcd.EmbeddedEtcdConfig;
import io.etcdworkers.etcd.EtcdBinaries;
import io.etcdworkers.etcd.EtcdGrpcClient;
import io.etcdworkers.etcd.EtcdMember;
import io.etcdworkers.etcd.ScratchEtcd;
import io.etcdworkers.etcd.SnapshotRestorer;
import io.etcdworkers.format.DeltaEvent;
import io.etcdworkers.format.EventType;
import io.etcdworkers.format.codec.Compression;
import io.etcdworkers.rebuild.engine.EngineSettings;
import io.etcdworkers.rebuild.verify.KeyspaceDigest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The raw ceiling of a replay on this machine: the bucket's full snapshot restored with etcd's
 * tool, the same kind of scratch etcd the worker starts ({@code EmbeddedEtcd} with the limits
 * {@code EngineInput} gives it), and then nothing but sequential single-revision transactions
 * through the same client path ({@link EtcdGrpcClient#txn}, a blocking stub), one in flight.
 * The transactions are built before the clock starts, from the same workload generator with the
 * same seed, so only etcd and the client call are timed. Also records the CPU the JVM and etcd
 * spent on them, etcd's memory afterwards, and how long reading the whole keyspace takes with the
 * worker's {@code KeyspaceDigest} (sorted pages) and with unsorted pages.
 */
public final class CeilingRun {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final CeilingSpec spec;

    public CeilingRun(CeilingSpec spec) {
        this.spec = spec;
    }

    public ObjectNode run() throws IOException {
        Path scratch = Files.createTempDirectory(Files.createDirectories(spec.scratchDir()), "ceiling-");
        Optional<Path> wal = spec.walDir().map(d -> d.resolve(scratch.getFileName() + "-wal"));
        try {
            EtcdBinaries binaries =
                    EtcdBinaries.locate(Optional.empty(), System.getenv().getOrDefault("PATH", ""));
            Path base = scratch.resolve("base.db");
            decompressFull(base);
            EtcdMember member = EtcdMember.onFreeLoopbackPort();
            Path dataDir = scratch.resolve("data");
            new SnapshotRestorer(binaries, scratch, SnapshotRestorer.DEFAULT_TIMEOUT)
                    .restore(new SnapshotRestorer.Request(base, member, dataDir, wal, false));
            EmbeddedEtcdConfig defaults = EmbeddedEtcdConfig.defaults(binaries, member, dataDir, scratch);
            // The limits EngineInput gives the worker's scratch etcd.
            EmbeddedEtcdConfig config = new EmbeddedEtcdConfig(
                    binaries,
                    member,
                    dataDir,
                    wal,
                    scratch,
                    EmbeddedEtcdConfig.DEFAULT_QUOTA_BACKEND_BYTES,
                    ScratchEtcd.MIN_REQUEST_BYTES,
                    ScratchEtcd.MIN_TXN_OPS,
                    spec.snapshotCount().orElse(defaults.snapshotCount()),
                    defaults.startTimeout(),
                    defaults.stopTimeout(),
                    0,
                    false,
                    false);
            try (EmbeddedEtcd etcd = EmbeddedEtcd.start(config);
                    EtcdGrpcClient client =
                            EtcdGrpcClient.connect(etcd.clientEndpoint(), EngineSettings.DEFAULT_CALL_TIMEOUT)) {
                List<TxnRequest> txns = prepare(client);
                ObjectNode out = measure(client, etcd.pid(), txns);
                out.put("snapshotCount", config.snapshotCount());
                out.put("etcdPeakRssMB", round(status(etcd.pid(), "VmHWM:") / 1024.0));
                out.put("etcdRssAnonMB", round(status(etcd.pid(), "RssAnon:") / 1024.0));
                timeReads(client, out);
                JSON.writerWithDefaultPrettyPrinter().writeValue(spec.outFile().toFile(), out);
                return out;
            }
        } finally {
            Dirs.delete(scratch);
            if (wal.isPresent()) {
                Dirs.delete(wal.get());
            }
        }
    }

    private void decompressFull(Path target) throws IOException {
        Path full;
        try (Stream<Path> files = Files.list(spec.bucketDir().resolve("v2"))) {
            full = files.filter(p -> p.getFileName().toString().startsWith("Full-"))
                    .findFirst()
                    .orElseThrow(() -> new IOException("no full snapshot in " + spec.bucketDir()));
        }
        try (InputStream in = Compression.GZIP.decompress(Files.newInputStream(full))) {
            Files.copy(in, target);
        }
    }

    private List<TxnRequest> prepare(EtcdGrpcClient client) {
        KeyspaceModel model = new KeyspaceModel();
        long revision = client.status().getHeader().getRevision();
        ByteString zero = ByteString.copyFrom(new byte[] {0});
        ByteString from = zero;
        while (true) {
            // range_end "\0": every key from `from` on
            RangeResponse page = client.range(RangeRequest.newBuilder()
                    .setKey(from)
                    .setRangeEnd(zero)
                    .setKeysOnly(true)
                    .setRevision(revision)
                    .setLimit(1000)
                    .build());
            for (KeyValue kv : page.getKvsList()) {
                model.load(
                        kv.getKey().toStringUtf8(),
                        new KeyState(kv.getCreateRevision(), kv.getModRevision(), kv.getVersion(), 0));
            }
            if (!page.getMore()) {
                break;
            }
            from = page.getKvs(page.getKvsCount() - 1).getKey().concat(zero);
        }
        if (model.liveCount() == 0) {
            throw new IllegalStateException("the restored base snapshot holds no keys: wrong bucket?");
        }
        model.advanceTo(revision);
        WorkloadGenerator workload =
                new WorkloadGenerator(model, new ValueSource(spec.seed()), spec.seed() + 1, spec.targetKeys());
        List<TxnRequest> txns = new ArrayList<>(spec.txns());
        for (int i = 0; i < spec.txns(); i++) {
            TxnRequest.Builder txn = TxnRequest.newBuilder();
            for (DeltaEvent e : workload.nextRevision()) {
                ByteString key = ByteString.copyFrom(e.key());
                txn.addSuccess(
                        e.type() == EventType.PUT
                                ? RequestOp.newBuilder()
                                        .setRequestPut(PutRequest.newBuilder()
                                                .setKey(key)
                                                .setValue(ByteString.copyFrom(e.value())))
                                : RequestOp.newBuilder()
                                        .setRequestDeleteRange(
                                                DeleteRangeRequest.newBuilder().setKey(key)));
            }
            txns.add(txn.build());
        }
        return txns;
    }

    private ObjectNode measure(EtcdGrpcClient client, long etcdPid, List<TxnRequest> txns) throws IOException {
        String loadBefore = MachineLoad.loadAverages();
        double busyBefore = MachineLoad.busyCpuSeconds();
        long selfPid = ProcessHandle.current().pid();
        long jvmTicks = ticks(selfPid);
        long etcdTicks = ticks(etcdPid);
        long revision = client.status().getHeader().getRevision();
        long events = 0;
        long started = System.nanoTime();
        long half = 0;
        for (int i = 0; i < txns.size(); i++) {
            if (i == txns.size() / 2) {
                half = System.nanoTime();
            }
            long now = client.txn(txns.get(i)).getHeader().getRevision();
            if (now != ++revision) {
                throw new IllegalStateException("etcd at revision " + now + ", expected " + revision);
            }
            events += txns.get(i).getSuccessCount();
        }
        long ended = System.nanoTime();
        double seconds = (ended - started) / 1e9;
        double jvmCpu = (ticks(selfPid) - jvmTicks) / 100.0;
        double etcdCpu = (ticks(etcdPid) - etcdTicks) / 100.0;
        ObjectNode out = JSON.createObjectNode();
        out.put("wal", spec.walDir().map(p -> "tmpfs " + p).orElse("disk (inside the data dir)"));
        out.put("txns", txns.size());
        out.put("events", events);
        out.put("seconds", round(seconds));
        out.put("txnPerSecond", round(txns.size() / seconds));
        out.put("eventsPerSecond", round(events / seconds));
        out.put("secondHalfTxnPerSecond", round((txns.size() - txns.size() / 2) / ((ended - half) / 1e9)));
        out.put("jvmCpuMsPerTxn", round(jvmCpu * 1000 / txns.size()));
        out.put("etcdCpuMsPerTxn", round(etcdCpu * 1000 / txns.size()));
        out.put("loadBefore", loadBefore);
        out.put("loadAfter", MachineLoad.loadAverages());
        out.put(
                "otherProcessesCores",
                round(Math.max(0, MachineLoad.busyCpuSeconds() - busyBefore - jvmCpu - etcdCpu) / seconds));
        return out;
    }

    /** The worker's verification read against the same pages without a sort order. */
    private static void timeReads(EtcdGrpcClient client, ObjectNode out) {
        long revision = client.status().getHeader().getRevision();
        long t = System.nanoTime();
        KeyspaceDigest.of(client, revision);
        out.put("digestReadSeconds", round((System.nanoTime() - t) / 1e9));
        t = System.nanoTime();
        ByteString zero = ByteString.copyFrom(new byte[] {0});
        ByteString from = zero;
        long bytes = 0;
        while (true) {
            RangeResponse page = client.range(RangeRequest.newBuilder()
                    .setKey(from)
                    .setRangeEnd(zero)
                    .setRevision(revision)
                    .setLimit(500)
                    .build());
            for (KeyValue kv : page.getKvsList()) {
                bytes += kv.getValue().size();
            }
            if (!page.getMore() || page.getKvsCount() == 0) {
                break;
            }
            from = page.getKvs(page.getKvsCount() - 1).getKey().concat(zero);
        }
        out.put("unsortedReadSeconds", round((System.nanoTime() - t) / 1e9));
        out.put("readValueBytes", bytes);
    }

    /** A {@code /proc/<pid>/status} figure in KiB. */
    private static long status(long pid, String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith(field)) {
                return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]);
            }
        }
        return -1;
    }

    /** utime + stime of one process (the JVM's own threads, or etcd). */
    private static long ticks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"), StandardCharsets.US_ASCII);
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
