package io.etcdworkers.restore.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import io.etcd.jetcd.api.KeyValue;
import io.etcd.jetcd.api.RangeRequest;
import io.etcd.jetcd.api.RangeResponse;
import io.etcdworkers.restore.etcd.EmbeddedEtcd;
import io.etcdworkers.restore.etcd.EmbeddedEtcdConfig;
import io.etcdworkers.restore.etcd.EtcdGrpcClient;
import io.etcdworkers.restore.etcd.EtcdMember;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The fixture's {@code expected/} state, and a reader of a restored data dir that starts a real
 * etcd on it, so a test compares what etcd itself serves with what the source etcd served.
 */
public final class ExpectedState {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ExpectedState() {}

    /** One key as {@code expected/keys.jsonl} and {@code etcdctl get -w json} give it. */
    public record Key(String key, String value, long createRevision, long modRevision, long version, long lease) {
        public Key withoutLease() {
            return new Key(key, value, createRevision, modRevision, version, 0);
        }
    }

    public static JsonNode stateJson() {
        return stateJson(Fixtures.V0_23_0);
    }

    /** {@code expected/state.json} of one fixture ({@link Fixtures#V0_23_0}, {@link Fixtures#V0_41_2}). */
    public static JsonNode stateJson(String fixture) {
        try {
            return JSON.readTree(Fixtures.expected(fixture).resolve("state.json").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static List<Key> keys() {
        return keys(Fixtures.V0_23_0);
    }

    /** {@code expected/keys.jsonl} of one fixture: every live key at the end, sorted by key. */
    public static List<Key> keys(String fixture) {
        try {
            List<Key> keys = new ArrayList<>();
            for (String line : Files.readAllLines(Fixtures.expected(fixture).resolve("keys.jsonl"))) {
                JsonNode n = JSON.readTree(line);
                keys.add(new Key(n.get("key").asText(), n.path("value").asText(""), n.get("create_revision").asLong(),
                        n.get("mod_revision").asLong(), n.get("version").asLong(), n.path("lease").asLong(0)));
            }
            return keys;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts etcd on a restored data dir (without changing it beyond what etcd's start does) and reads every key. */
    public static Served serve(Path dataDir, Path scratch) {
        return serve(EtcdTestEnvironment.onPath(), dataDir, scratch);
    }

    /** As {@link #serve(Path, Path)}, with the given etcd (another version than the one on PATH). */
    public static Served serve(EtcdInstall etcdInstall, Path dataDir, Path scratch) {
        io.etcdworkers.restore.etcd.EtcdBinaries binaries = io.etcdworkers.restore.etcd.EtcdBinaries.locate(
                java.util.Optional.of(etcdInstall.binDir()), "");
        EtcdMember member = new EtcdMember("reader", URI.create("http://127.0.0.1:" + io.etcdworkers.restore.etcd.LoopbackPorts.free()),
                "reader");
        try (EmbeddedEtcd etcd = EmbeddedEtcd.start(EmbeddedEtcdConfig.defaults(binaries, member,
                dataDir, scratch));
                EtcdGrpcClient client = EtcdGrpcClient.connect(etcd.clientEndpoint(), Duration.ofSeconds(30))) {
            long revision = client.status().getHeader().getRevision();
            List<Key> keys = new ArrayList<>();
            ByteString from = ByteString.copyFrom(new byte[] {0});
            while (true) {
                RangeResponse page = client.range(RangeRequest.newBuilder().setKey(from)
                        .setRangeEnd(ByteString.copyFrom(new byte[] {0})).setLimit(1000).build());
                for (KeyValue kv : page.getKvsList()) {
                    Base64.Encoder b64 = Base64.getEncoder();
                    keys.add(new Key(b64.encodeToString(kv.getKey().toByteArray()),
                            b64.encodeToString(kv.getValue().toByteArray()), kv.getCreateRevision(), kv.getModRevision(),
                            kv.getVersion(), kv.getLease()));
                }
                if (!page.getMore()) {
                    break;
                }
                from = page.getKvs(page.getKvsCount() - 1).getKey().concat(ByteString.copyFrom(new byte[] {0}));
            }
            long[] leases = client.leaseIds();
            io.etcd.jetcd.api.HashKVResponse hash = io.etcd.jetcd.api.MaintenanceGrpc.newBlockingStub(client.channel())
                    .withDeadlineAfter(30, java.util.concurrent.TimeUnit.SECONDS)
                    .hashKV(io.etcd.jetcd.api.HashKVRequest.newBuilder().setRevision(0).build()); // 0: current (at the compaction revision etcd refuses an explicit one)
            return new Served(revision, keys, leases, Integer.toUnsignedLong(hash.getHash()), hash.getCompactRevision(),
                    io.etcdworkers.restore.verify.KeyspaceDigest.of(client, revision), etcd.version().toString());
        }
    }

    /**
     * What a restored data dir served.
     *
     * @param hashKv etcd's {@code endpoint hashkv} at {@code revision}: a hash over the key bucket's
     *     entries (revisions and encoded key-values) kept since the compaction revision
     * @param compactRevision etcd's compaction revision
     * @param digest the keyspace digest at {@code revision} (as {@code expected/state.json} defines it)
     * @param etcdVersion the version of the etcd that served it
     */
    public record Served(long revision, List<Key> keys, long[] leaseIds, long hashKv, long compactRevision,
            io.etcdworkers.restore.verify.KeyspaceDigest digest, String etcdVersion) {}
}
