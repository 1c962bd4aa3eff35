package io.etcdworkers.etcd.schema;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** The keys of etcd's {@link Bucket#META} bucket that the workers read or write, as etcd names them. */
public enum MetaKey {
    /** The revision the last finished compaction compacted at: a {@link Revision} key's bytes. */
    FINISHED_COMPACT_REV("finishedCompactRev"),
    /** The revision the last scheduled compaction compacts at; past the finished one, etcd finishes it when it opens the file. */
    SCHEDULED_COMPACT_REV("scheduledCompactRev");

    private final byte[] bytes;

    MetaKey(String name) {
        this.bytes = name.getBytes(StandardCharsets.US_ASCII);
    }

    /** The key in the meta bucket (a copy). */
    public byte[] bytes() {
        return bytes.clone();
    }

    /** Whether {@code key} is this key. */
    public boolean is(byte[] key) {
        return Arrays.equals(bytes, key);
    }
}
