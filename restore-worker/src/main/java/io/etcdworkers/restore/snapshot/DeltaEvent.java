package io.etcdworkers.restore.snapshot;

import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.Objects;

/**
 * One event of a delta snapshot, as the backup sidecar recorded it from etcd's watch.
 *
 * <p>DELETE events carry only the key and the mod revision. {@code time} is when the sidecar
 * received the event; a restore ignores it.
 */
public record DeltaEvent(
        EventType type,
        byte[] key,
        byte[] value,
        long createRevision,
        long modRevision,
        long version,
        long lease,
        OffsetDateTime time) {

    private static final byte[] EMPTY = new byte[0];

    public DeltaEvent {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(key, "key");
        value = value == null ? EMPTY : value;
        Objects.requireNonNull(time, "time");
    }

    public static DeltaEvent put(byte[] key, byte[] value, long create, long mod, long version, long lease,
            OffsetDateTime time) {
        return new DeltaEvent(EventType.PUT, key, value, create, mod, version, lease, time);
    }

    public static DeltaEvent delete(byte[] key, long mod, OffsetDateTime time) {
        return new DeltaEvent(EventType.DELETE, key, EMPTY, 0, mod, 0, 0, time);
    }

    /** Bytes this event adds to an etcd request (key + value), for sizing limits. */
    public long payloadBytes() {
        return (long) key.length + value.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeltaEvent e
                && type == e.type && Arrays.equals(key, e.key) && Arrays.equals(value, e.value)
                && createRevision == e.createRevision && modRevision == e.modRevision
                && version == e.version && lease == e.lease && time.equals(e.time);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, Arrays.hashCode(key), Arrays.hashCode(value), modRevision);
    }

    @Override
    public String toString() {
        return type + " " + new String(key, java.nio.charset.StandardCharsets.UTF_8) + "@" + modRevision;
    }
}
