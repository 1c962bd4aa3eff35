package io.etcdworkers.format;

import io.etcdworkers.files.ValueRef;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.Objects;

/**
 * One event of a delta snapshot, as the backup sidecar recorded it from etcd's watch.
 *
 * <p>DELETE events carry only the key and the mod revision. {@code time} is when the sidecar
 * received the event; a restore ignores it.
 *
 * <p>An event read back from a delta the fetch threads decoded ({@link DecodedDeltaFile}) leaves
 * its value in the delta's value file: {@code stored} says where, and {@code value} is empty.
 * {@link #value()} reads it from there; the offline fold keeps only {@code stored}.
 */
public record DeltaEvent(
        EventType type,
        byte[] key,
        byte[] value,
        long createRevision,
        long modRevision,
        long version,
        long lease,
        OffsetDateTime time,
        ValueRef stored) {

    private static final byte[] EMPTY = new byte[0];

    public DeltaEvent {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(key, "key");
        value = value == null ? EMPTY : value;
        Objects.requireNonNull(time, "time");
        if (stored != null && value.length > 0) {
            throw new IllegalArgumentException("an event's value is either held or stored, not both");
        }
    }

    /** An event whose value is held ({@code value}, or none). */
    public DeltaEvent(
            EventType type,
            byte[] key,
            byte[] value,
            long createRevision,
            long modRevision,
            long version,
            long lease,
            OffsetDateTime time) {
        this(type, key, value, createRevision, modRevision, version, lease, time, null);
    }

    public static DeltaEvent put(
            byte[] key, byte[] value, long create, long mod, long version, long lease, OffsetDateTime time) {
        return new DeltaEvent(EventType.PUT, key, value, create, mod, version, lease, time);
    }

    /** A PUT whose value waits in a value file. */
    public static DeltaEvent putStored(
            byte[] key, ValueRef value, long create, long mod, long version, long lease, OffsetDateTime time) {
        return new DeltaEvent(EventType.PUT, key, EMPTY, create, mod, version, lease, time, value);
    }

    public static DeltaEvent delete(byte[] key, long mod, OffsetDateTime time) {
        return new DeltaEvent(EventType.DELETE, key, EMPTY, 0, mod, 0, 0, time);
    }

    /** The value, read from its value file when it is stored there (each call reads it again). */
    @Override
    public byte[] value() {
        if (stored == null) {
            return value;
        }
        try {
            return stored.read();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read the value of " + this + " from "
                            + stored.file().path(),
                    e);
        }
    }

    public int valueLength() {
        return stored == null ? value.length : stored.length();
    }

    /** Bytes this event adds to an etcd request (key + value), for sizing limits. */
    public long payloadBytes() {
        return (long) key.length + valueLength();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeltaEvent e
                && type == e.type
                && Arrays.equals(key, e.key)
                && Arrays.equals(value(), e.value())
                && createRevision == e.createRevision
                && modRevision == e.modRevision
                && version == e.version
                && lease == e.lease
                && time.equals(e.time);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, Arrays.hashCode(key), valueLength(), modRevision);
    }

    @Override
    public String toString() {
        return type + " " + new String(key, StandardCharsets.UTF_8) + "@" + modRevision;
    }
}
