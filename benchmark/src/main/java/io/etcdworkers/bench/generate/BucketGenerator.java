package io.etcdworkers.bench.generate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import io.etcd.jetcd.api.PutRequest;
import io.etcd.jetcd.api.RequestOp;
import io.etcd.jetcd.api.TxnRequest;
import io.etcdworkers.bench.measure.Dirs;
import io.etcdworkers.format.DeltaEvent;
import io.etcdworkers.format.SnapshotKind;
import io.etcdworkers.format.SnapshotName;
import io.etcdworkers.format.codec.Compression;
import io.etcdworkers.store.LocalDirectoryStore;
import io.etcdworkers.store.ObjectWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * Generates one benchmark bucket: seeds a real etcd with {@code seedKeys} keys, takes its
 * {@code Maintenance.Snapshot} (database plus SHA-256 trailer) as the gzip full snapshot, then
 * synthesizes {@code events} delta events after its revision with {@link WorkloadGenerator},
 * written by the worker's own {@code DeltaWriter} in gzip deltas of about 10 MiB of JSON, and
 * finally writes the {@link ExpectedState} and the bucket's figures to {@code expected.json}.
 *
 * <p>gzip for both, because etcd-druid turns the sidecar's compression on with its default
 * policy, gzip.
 */
public final class BucketGenerator {
    static final Compression COMPRESSION = Compression.GZIP;
    private static final int SEED_PUTS_PER_TXN = 200;
    private static final String PREFIX = "v2/";

    private final BucketSpec spec;

    public BucketGenerator(BucketSpec spec) {
        this.spec = spec;
    }

    /** Writes the bucket and returns the contents of {@code expected.json}. */
    public ObjectNode generate() throws IOException, InterruptedException {
        long started = System.nanoTime();
        Files.createDirectories(spec.bucketDir());
        ValueSource values = spec.values();
        KeyspaceModel model = new KeyspaceModel();
        WorkloadGenerator workload = new WorkloadGenerator(model, values, spec.seed() + 1, spec.seedKeys());
        LocalDirectoryStore store = new LocalDirectoryStore(spec.bucketDir());
        long fullBytes = seedAndSnapshot(store, model, values, workload);
        long baseRevision = model.revision();
        long events = 0;
        long revisions = 0;
        DeltaSink sink = new DeltaSink(store, PREFIX, COMPRESSION);
        try (sink) {
            while (events < spec.events()) {
                List<DeltaEvent> group = workload.nextRevision();
                sink.write(group);
                events += group.size();
                revisions++;
            }
        }
        ExpectedState expected = ExpectedState.of(model, values);
        ObjectNode json = new ObjectMapper().createObjectNode();
        json.put("revision", expected.revision());
        json.put("keys", expected.keys());
        json.put("kvSha256", expected.kvSha256());
        json.put("metaSha256", expected.metaSha256());
        json.put("seed", spec.seed());
        json.put("seedKeys", spec.seedKeys());
        json.put("baseRevision", baseRevision);
        json.put("fullSnapshotBytes", fullBytes);
        json.put("events", events);
        json.put("revisions", revisions);
        json.put("deltas", sink.deltas());
        json.put("deltaJsonBytes", sink.jsonBytes());
        json.put("deltaStoredBytes", sink.storedBytes());
        json.put("compression", COMPRESSION.policyName());
        json.put("generateSeconds", (System.nanoTime() - started) / 1e9);
        new ObjectMapper()
                .writerWithDefaultPrettyPrinter()
                .writeValue(spec.expectedFile().toFile(), json);
        return json;
    }

    /** @return the uncompressed size of the full snapshot (database + trailer) */
    private long seedAndSnapshot(
            LocalDirectoryStore store, KeyspaceModel model, ValueSource values, WorkloadGenerator workload)
            throws IOException, InterruptedException {
        Path seedDir = Files.createTempDirectory(spec.outDir(), "seed-etcd-");
        try (PlainEtcd etcd =
                PlainEtcd.start(spec.etcdBinary(), seedDir.resolve("data"), seedDir.resolve("etcd.log"))) {
            long revision = etcd.client().status().getHeader().getRevision();
            model.advanceTo(revision);
            for (int put = 0; put < spec.seedKeys(); ) {
                TxnRequest.Builder txn = TxnRequest.newBuilder();
                int first = put;
                String[] keys = new String[Math.min(SEED_PUTS_PER_TXN, spec.seedKeys() - put)];
                for (int i = 0; i < keys.length; i++, put++) {
                    keys[i] = workload.freshKey();
                    txn.addSuccess(RequestOp.newBuilder()
                            .setRequestPut(PutRequest.newBuilder()
                                    .setKey(ByteString.copyFrom(keys[i], StandardCharsets.UTF_8))
                                    .setValue(ByteString.copyFrom(values.value(seedStamp(first + i))))));
                }
                revision = etcd.client().txn(txn.build()).getHeader().getRevision();
                model.advanceTo(revision);
                for (int i = 0; i < keys.length; i++) {
                    model.put(keys[i], revision, seedStamp(first + i));
                }
            }
            Instant created = WorkloadGenerator.timeOf(revision).toInstant().truncatedTo(ChronoUnit.SECONDS);
            String name = SnapshotName.of(SnapshotKind.FULL, 0, revision, created, COMPRESSION, false)
                    .format();
            try (ObjectWriter object = store.create(PREFIX + name)) {
                long bytes;
                try (OutputStream out = COMPRESSION.compress(object.out())) {
                    bytes = etcd.client().snapshot(out, Duration.ofMinutes(10));
                }
                object.commit();
                return bytes;
            }
        } finally {
            Dirs.delete(seedDir);
        }
    }

    /** Stamps of seeded values live above any delta stamp ({@code revision * 8 + index}). */
    private static long seedStamp(int i) {
        return (1L << 62) | i;
    }
}
