package io.etcdworkers.format;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * The SHA-256 of one revision's events as etcd wrote them (type, key, value, create and mod
 * revision, version, lease), without the time the backup sidecar received them: two deltas that
 * overlap around a leader change hold the same events received at different times.
 */
public final class GroupDigest {
    private GroupDigest() {}

    public static byte[] of(RevisionGroup group) {
        MessageDigest sha = sha256();
        ByteBuffer fixed = ByteBuffer.allocate(4 + 8 * 4 + 4 + 4);
        for (DeltaEvent e : group.events()) {
            byte[] value = e.value();
            fixed.clear();
            fixed.putInt(e.type().ordinal())
                    .putLong(e.createRevision())
                    .putLong(e.modRevision())
                    .putLong(e.version())
                    .putLong(e.lease())
                    .putInt(e.key().length)
                    .putInt(value.length);
            sha.update(fixed.array(), 0, fixed.position());
            sha.update(e.key());
            sha.update(value);
        }
        return sha.digest();
    }

    public static boolean same(byte[] a, byte[] b) {
        return Arrays.equals(a, b);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always has SHA-256", e);
        }
    }
}
