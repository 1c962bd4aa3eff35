package io.etcdworkers.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

/**
 * The fixture's {@code expected/} state, and a reader of a restored data dir that starts a real
 * etcd on it, so a test compares what etcd itself serves with what the source etcd served.
 *
 * <p>The reader is etcd's own: the data dir is served by an {@link EtcdProcess} and read with
 * {@code etcdctl} ({@code get}, {@code lease list}, {@code endpoint hashkv}), and the digest is
 * computed here from what etcdctl printed, by the definition {@code expected/state.json} uses.
 * None of it is worker code, so a worker bug cannot hide in the oracle.
 */
public final class ExpectedState {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ExpectedState() {}

    /** One key as {@code expected/keys.jsonl} and {@code etcdctl get -w json} give it (key and value in base64). */
    public record Key(String key, String value, long createRevision, long modRevision, long version, long lease) {
        public Key withoutLease() {
            return new Key(key, value, createRevision, modRevision, version, 0);
        }

        /** A {@code kvs} entry of {@code etcdctl get -w json}: zero fields and empty values are omitted. */
        public static Key of(JsonNode n) {
            return new Key(
                    n.get("key").asText(),
                    n.path("value").asText(""),
                    n.get("create_revision").asLong(),
                    n.get("mod_revision").asLong(),
                    n.get("version").asLong(),
                    n.path("lease").asLong(0));
        }
    }

    /**
     * The keyspace digest of {@code expected/state.json} ({@code kv_sha256}, {@code meta_sha256}):
     * keys in ascending byte order; kv = SHA-256 over {@code u64(len(key)) key u64(len(value))
     * value} per key, meta additionally {@code u64(create) u64(mod) u64(version) u64(lease)};
     * {@code u64} is 8 bytes big-endian.
     *
     * @param keys live keys
     * @param kvSha256 hex digest of keys and values
     * @param metaSha256 hex digest with revisions, versions and leases
     */
    public record Digest(long keys, String kvSha256, String metaSha256) {
        /** The digest of {@code keys}, which must be in ascending byte order (as etcd returns them). */
        public static Digest of(List<Key> keys) {
            MessageDigest kv = sha256();
            MessageDigest meta = sha256();
            Base64.Decoder b64 = Base64.getDecoder();
            for (Key k : keys) {
                byte[] key = b64.decode(k.key());
                byte[] value = b64.decode(k.value());
                for (MessageDigest d : List.of(kv, meta)) {
                    d.update(u64(key.length));
                    d.update(key);
                    d.update(u64(value.length));
                    d.update(value);
                }
                for (long field : new long[] {k.createRevision(), k.modRevision(), k.version(), k.lease()}) {
                    meta.update(u64(field));
                }
            }
            HexFormat hex = HexFormat.of();
            return new Digest(keys.size(), hex.formatHex(kv.digest()), hex.formatHex(meta.digest()));
        }

        private static byte[] u64(long value) {
            return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
        }

        private static MessageDigest sha256() {
            try {
                return MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every JVM has SHA-256", e);
            }
        }
    }

    public static JsonNode stateJson() {
        return stateJson(Fixtures.V0_23_0);
    }

    /** {@code expected/state.json} of one fixture ({@link Fixtures#V0_23_0}, {@link Fixtures#V0_41_2}). */
    public static JsonNode stateJson(String fixture) {
        try {
            return JSON.readTree(
                    Fixtures.expected(fixture).resolve("state.json").toFile());
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
                keys.add(Key.of(JSON.readTree(line)));
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
    public static Served serve(EtcdInstall etcd, Path dataDir, Path scratch) {
        Path etcdctl = etcd.etcdctl().orElseThrow(() -> new IllegalStateException("no etcdctl next to " + etcd.etcd()));
        try (EtcdProcess server = EtcdProcess.start(etcd, dataDir, scratch)) {
            String endpoint = "--endpoints=" + server.clientUrl();
            // "" --from-key: every key; one response (etcdctl takes any size), in ascending key order
            JsonNode range = JSON.readTree(etcd.run(etcdctl, endpoint, "-w", "json", "get", "", "--from-key"));
            List<Key> keys = new ArrayList<>();
            range.path("kvs").forEach(kv -> keys.add(Key.of(kv)));
            JsonNode leases = JSON.readTree(etcd.run(etcdctl, endpoint, "-w", "json", "lease", "list"));
            long[] leaseIds = new long[leases.path("leases").size()];
            for (int i = 0; i < leaseIds.length; i++) {
                leaseIds[i] = leases.get("leases").get(i).get("id").asLong();
            }
            // --rev 0: the current revision (at the compaction revision etcd refuses an explicit one)
            JsonNode hash = JSON.readTree(etcd.run(etcdctl, endpoint, "-w", "json", "endpoint", "hashkv", "--rev=0"))
                    .get(0)
                    .get("HashKV");
            return new Served(
                    range.get("header").get("revision").asLong(),
                    keys,
                    leaseIds,
                    hash.get("hash").asLong(),
                    hash.get("compact_revision").asLong(),
                    Digest.of(keys),
                    etcd.version().toString());
        } catch (IOException e) {
            throw new UncheckedIOException("etcdctl printed no JSON", e);
        }
    }

    /**
     * What a restored data dir served.
     *
     * @param hashKv etcd's {@code endpoint hashkv} at {@code revision}: a hash over the key bucket's
     *     entries (revisions and encoded key-values) kept since the compaction revision
     * @param compactRevision etcd's compaction revision (-1 or 0 when it never compacted)
     * @param digest the keyspace digest at {@code revision} (as {@code expected/state.json} defines it)
     * @param etcdVersion the version of the etcd that served it
     */
    public record Served(
            long revision,
            List<Key> keys,
            long[] leaseIds,
            long hashKv,
            long compactRevision,
            Digest digest,
            String etcdVersion) {}
}
