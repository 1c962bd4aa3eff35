package io.etcdworkers.format;

import io.etcdworkers.files.OwnerOnly;
import io.etcdworkers.files.ValueFile;
import io.etcdworkers.files.ValueRef;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * A delta already decoded and hash-checked, kept in scratch files in a plain binary form, so the
 * expensive part (decompression, JSON, base64, SHA-256) can run on several fetch threads while
 * one thread consumes the groups in order at the speed of reading a file.
 *
 * <p>Two files: the events, and beside them ({@link #valuesOf}) the values, one after the other
 * in event order. The consumer reads only the events; each PUT comes back with where its value is
 * in the value file ({@link DeltaEvent#stored()}), so the offline fold points at values instead of
 * copying them, and reads only those still live when it writes the database.
 *
 * <p>Events, per group: {@code revision} (8 bytes), {@code events} (4), the group's time (epoch
 * seconds 8, nanos 4, UTC offset seconds 4); per event: type (1: 0 PUT, 1 DELETE), key length
 * (4), key, value length (4), create revision, version, lease (8 each). The file ends with
 * revision -1, so a cut file is never taken as complete, and the value lengths must add up to the
 * value file's size. Each event gets its group's time back (the latest of the group's, see {@link
 * RevisionGroup#time()}): a point-in-time restore needs no more.
 */
public final class DecodedDeltaFile {
    private static final long END = -1;

    private DecodedDeltaFile() {}

    /** The value file beside the events file {@code events}. */
    public static Path valuesOf(Path events) {
        return events.resolveSibling(events.getFileName() + ".values");
    }

    /** Writes groups as they are decoded: the events into {@code file}, the values beside it. */
    public static final class Writer implements AutoCloseable {
        private final DataOutputStream out;
        private final BufferedOutputStream values;

        public Writer(Path file) throws IOException {
            this.out = new DataOutputStream(new BufferedOutputStream(OwnerOnly.newOutputStream(file), 1 << 16));
            BufferedOutputStream v;
            try {
                v = new BufferedOutputStream(OwnerOnly.newOutputStream(valuesOf(file)), 1 << 16);
            } catch (IOException | RuntimeException e) {
                out.close();
                throw e;
            }
            this.values = v;
        }

        public void write(RevisionGroup group) throws IOException {
            out.writeLong(group.revision());
            out.writeInt(group.events().size());
            OffsetDateTime time = group.time();
            out.writeLong(time.toEpochSecond());
            out.writeInt(time.getNano());
            out.writeInt(time.getOffset().getTotalSeconds());
            for (DeltaEvent e : group.events()) {
                out.writeByte(e.type() == EventType.PUT ? 0 : 1);
                out.writeInt(e.key().length);
                out.write(e.key());
                byte[] value = e.value();
                out.writeInt(value.length);
                values.write(value);
                out.writeLong(e.createRevision());
                out.writeLong(e.version());
                out.writeLong(e.lease());
            }
        }

        /** Marks the file complete; without it a reader fails at the end. */
        public void finish() throws IOException {
            values.flush();
            out.writeLong(END);
            out.flush();
        }

        @Override
        public void close() throws IOException {
            try {
                values.close();
            } finally {
                out.close();
            }
        }
    }

    /**
     * Reads the groups back in order, each PUT's value left in {@code values} (the file {@link
     * #valuesOf} names, opened by the caller, who decides when it goes).
     */
    public static final class Reader implements AutoCloseable {
        private final Path file;
        private final DataInputStream in;
        private final ValueFile values;
        private long valueOffset;

        public Reader(Path file, ValueFile values) throws IOException {
            this.file = file;
            this.values = values;
            this.in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16));
        }

        /** @return the next group, or null after the last */
        public RevisionGroup next() throws IOException {
            try {
                long revision = in.readLong();
                if (revision == END) {
                    if (valueOffset != values.size()) {
                        throw new IOException(
                                "decoded delta " + file + " names " + valueOffset + " bytes of values but "
                                        + values.path() + " holds " + values.size() + ": the scratch files were cut");
                    }
                    return null;
                }
                int count = in.readInt();
                long seconds = in.readLong();
                int nanos = in.readInt();
                ZoneOffset offset = ZoneOffset.ofTotalSeconds(in.readInt());
                OffsetDateTime time = OffsetDateTime.ofInstant(Instant.ofEpochSecond(seconds, nanos), offset);
                List<DeltaEvent> events = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    boolean put = in.readByte() == 0;
                    byte[] key = bytes();
                    ValueRef value = valueRef();
                    long create = in.readLong();
                    long version = in.readLong();
                    long lease = in.readLong();
                    events.add(
                            !put
                                    ? DeltaEvent.delete(key, revision, time)
                                    : value.length() == 0
                                            ? DeltaEvent.put(key, null, create, revision, version, lease, time)
                                            : DeltaEvent.putStored(key, value, create, revision, version, lease, time));
                }
                return new RevisionGroup(revision, events);
            } catch (EOFException e) {
                throw new IOException("decoded delta " + file + " ends early: the scratch file was cut", e);
            }
        }

        private ValueRef valueRef() throws IOException {
            int n = length();
            ValueRef ref = new ValueRef(values, valueOffset, n);
            valueOffset += n;
            return ref;
        }

        private byte[] bytes() throws IOException {
            byte[] b = new byte[length()];
            in.readFully(b);
            return b;
        }

        private int length() throws IOException {
            int n = in.readInt();
            if (n < 0) {
                throw new IOException("decoded delta " + file + " is damaged (negative length)");
            }
            return n;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
