package io.etcdworkers.rebuild.verify;

import com.google.protobuf.ByteString;
import java.nio.ByteBuffer;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A key's 128-bit hash for a {@link KeySum}: the first 128 bits of SHA-256 over the encoding
 * {@link KeyspaceDigest} uses, {@code u64(len(key)) key u64(len(value)) value u64(create)
 * u64(mod) u64(version) u64(lease)}. Not thread-safe: one per thread.
 */
public final class KeyHasher {
    private final MessageDigest sha = sha256();
    private final ByteBuffer u64 = ByteBuffer.allocate(8);
    private final byte[] hash = new byte[32];

    public void addTo(KeySum sum, byte[] key, byte[] value, long create, long mod, long version, long lease) {
        put(key.length);
        sha.update(key);
        put(value.length);
        sha.update(value);
        finish(sum, create, mod, version, lease);
    }

    public void addTo(KeySum sum, ByteString key, ByteString value, long create, long mod, long version, long lease) {
        put(key.size());
        key.asReadOnlyByteBufferList().forEach(sha::update);
        put(value.size());
        value.asReadOnlyByteBufferList().forEach(sha::update);
        finish(sum, create, mod, version, lease);
    }

    private void finish(KeySum sum, long create, long mod, long version, long lease) {
        put(create);
        put(mod);
        put(version);
        put(lease);
        try {
            sha.digest(hash, 0, hash.length);
        } catch (DigestException e) {
            throw new IllegalStateException("SHA-256 is 32 bytes", e);
        }
        ByteBuffer h = ByteBuffer.wrap(hash);
        sum.add(h.getLong(), h.getLong());
    }

    private void put(long value) {
        u64.clear();
        u64.putLong(value);
        sha.update(u64.array());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
