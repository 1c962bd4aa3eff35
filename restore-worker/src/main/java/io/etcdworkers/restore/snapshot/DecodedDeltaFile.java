package io.etcdworkers.restore.snapshot;

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
 * A delta already decoded and hash-checked, kept in a scratch file in a plain binary form, so the
 * expensive part (decompression, JSON, base64, SHA-256) can run on several fetch threads while
 * one thread consumes the groups in order at the speed of reading a file.
 *
 * <p>Per group: {@code revision} (8 bytes), {@code events} (4), the group's time (epoch seconds
 * 8, nanos 4, UTC offset seconds 4); per event: type (1: 0 PUT, 1 DELETE), key length (4), key,
 * value length (4), value, create revision, version, lease (8 each). The file ends with revision
 * -1, so a cut file is never taken as complete. Each event gets its group's time back (the
 * latest of the group's, see {@link RevisionGroup#time()}): a point-in-time restore needs no more.
 */
public final class DecodedDeltaFile {
    private static final long END = -1;

    private DecodedDeltaFile() {}

    /** Writes groups as they are decoded. */
    public static final class Writer implements AutoCloseable {
        private final DataOutputStream out;

        public Writer(Path file) throws IOException {
            this.out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16));
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
                out.writeInt(e.value().length);
                out.write(e.value());
                out.writeLong(e.createRevision());
                out.writeLong(e.version());
                out.writeLong(e.lease());
            }
        }

        /** Marks the file complete; without it a reader fails at the end. */
        public void finish() throws IOException {
            out.writeLong(END);
            out.flush();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }

    /** Reads the groups back in order. */
    public static final class Reader implements AutoCloseable {
        private final Path file;
        private final DataInputStream in;

        public Reader(Path file) throws IOException {
            this.file = file;
            this.in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16));
        }

        /** @return the next group, or null after the last */
        public RevisionGroup next() throws IOException {
            try {
                long revision = in.readLong();
                if (revision == END) {
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
                    byte[] value = bytes();
                    long create = in.readLong();
                    long version = in.readLong();
                    long lease = in.readLong();
                    events.add(put ? DeltaEvent.put(key, value, create, revision, version, lease, time)
                            : DeltaEvent.delete(key, revision, time));
                }
                return new RevisionGroup(revision, events);
            } catch (EOFException e) {
                throw new IOException("decoded delta " + file + " ends early: the scratch file was cut", e);
            }
        }

        private byte[] bytes() throws IOException {
            int n = in.readInt();
            if (n < 0) {
                throw new IOException("decoded delta " + file + " is damaged (negative length)");
            }
            byte[] b = new byte[n];
            in.readFully(b);
            return b;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
