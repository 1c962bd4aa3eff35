package io.etcdworkers.rebuild.verify;

import com.google.protobuf.ByteString;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.function.Consumer;

/**
 * Accumulates a {@link KeyspaceDigest} from keys given in ascending byte order, whether they come
 * from a running etcd or from a database computed without one.
 */
public final class KeyspaceDigestBuilder {
    private final MessageDigest kv = sha256();
    private final MessageDigest meta = sha256();
    private final MessageDigest metaNoLease = sha256();
    private final ByteBuffer u64 = ByteBuffer.allocate(8);
    private byte[] lastKey;
    private long keys;
    private long leased;

    /**
     * Adds the next key; keys must ascend (unsigned bytewise), else the digest would be
     * meaningless. The value is hashed where it lies (no copy of what etcd sent).
     */
    public void add(ByteString key, ByteString value, long create, long mod, long version, long lease) {
        add(
                key.toByteArray(),
                value.size(),
                d -> value.asReadOnlyByteBufferList().forEach(d::update),
                create,
                mod,
                version,
                lease);
    }

    public void add(byte[] key, byte[] value, long create, long mod, long version, long lease) {
        add(key, value.length, d -> d.update(value), create, mod, version, lease);
    }

    private void add(
            byte[] key,
            int valueLength,
            Consumer<MessageDigest> value,
            long create,
            long mod,
            long version,
            long lease) {
        checkOrder(key);
        for (MessageDigest d : new MessageDigest[] {kv, meta, metaNoLease}) {
            put(d, key.length);
            d.update(key);
            put(d, valueLength);
            value.accept(d);
        }
        addMeta(create, mod, version, lease);
    }

    private void checkOrder(byte[] key) {
        if (lastKey != null && Arrays.compareUnsigned(lastKey, key) >= 0) {
            throw new IllegalArgumentException("keys out of order: a digest needs ascending keys");
        }
        lastKey = key;
    }

    private void addMeta(long create, long mod, long version, long lease) {
        for (MessageDigest d : new MessageDigest[] {meta, metaNoLease}) {
            put(d, create);
            put(d, mod);
            put(d, version);
        }
        put(meta, lease);
        put(metaNoLease, 0);
        keys++;
        if (lease != 0) {
            leased++;
        }
    }

    public KeyspaceDigest build(long revision) {
        HexFormat hex = HexFormat.of();
        return new KeyspaceDigest(
                revision,
                keys,
                leased,
                hex.formatHex(kv.digest()),
                hex.formatHex(meta.digest()),
                hex.formatHex(metaNoLease.digest()));
    }

    private void put(MessageDigest digest, long value) {
        u64.clear();
        u64.putLong(value);
        digest.update(u64.array());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
