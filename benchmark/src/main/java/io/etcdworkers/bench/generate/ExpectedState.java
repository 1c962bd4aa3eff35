package io.etcdworkers.bench.generate;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * The final keyspace the generator expects a restore to produce, digested exactly as
 * {@code io.etcdworkers.rebuild.verify.KeyspaceDigest} digests a live etcd (keys in byte order;
 * {@code kv} over length-prefixed keys and values; {@code meta} adds create, mod, version and
 * lease, all big-endian u64). Computed from the model, never from etcd, so a match checks the
 * engine against an independent account of what the deltas mean.
 *
 * @param revision the last revision of the bucket
 * @param keys live keys at that revision
 * @param kvSha256 hex digest of keys and values
 * @param metaSha256 hex digest with revisions, versions and leases (all 0 here)
 */
public record ExpectedState(long revision, long keys, String kvSha256, String metaSha256) {

    /** Digests the model as it stands. */
    public static ExpectedState of(KeyspaceModel model, ValueSource values) {
        MessageDigest kv = sha256();
        MessageDigest meta = sha256();
        ByteBuffer u64 = ByteBuffer.allocate(8);
        // Keys are ASCII, so String order is etcd's byte order.
        TreeMap<String, KeyState> sorted = new TreeMap<>(model.liveKeys());
        for (Map.Entry<String, KeyState> e : sorted.entrySet()) {
            byte[] key = e.getKey().getBytes(StandardCharsets.UTF_8);
            byte[] value = values.value(e.getValue().valueStamp());
            for (MessageDigest d : new MessageDigest[] {kv, meta}) {
                put(d, u64, key.length);
                d.update(key);
                put(d, u64, value.length);
                d.update(value);
            }
            put(meta, u64, e.getValue().createRevision());
            put(meta, u64, e.getValue().modRevision());
            put(meta, u64, e.getValue().version());
            put(meta, u64, 0);
        }
        HexFormat hex = HexFormat.of();
        return new ExpectedState(
                model.revision(), sorted.size(), hex.formatHex(kv.digest()), hex.formatHex(meta.digest()));
    }

    private static void put(MessageDigest d, ByteBuffer u64, long v) {
        u64.clear();
        u64.putLong(v);
        d.update(u64.array());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
