package io.etcdworkers.bench.generate;

import io.etcdworkers.format.DeltaEvent;
import io.etcdworkers.format.DeltaWriter;
import io.etcdworkers.format.SnapshotKind;
import io.etcdworkers.format.SnapshotName;
import io.etcdworkers.format.codec.Compression;
import io.etcdworkers.store.ObjectStore;
import io.etcdworkers.store.ObjectWriter;
import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * Cuts revision groups into delta objects as the backup sidecar does: a new delta once the
 * current one holds about {@link #CUT_BYTES} of JSON, never splitting a revision. A delta is
 * compressed into memory (a few MiB) until its last revision, which its name needs, is known.
 */
final class DeltaSink implements AutoCloseable {
    /** The sidecar's delta size threshold (10 MiB of JSON). */
    static final long CUT_BYTES = 10L * 1024 * 1024;

    private final ObjectStore store;
    private final String prefix;
    private final Compression compression;
    private ByteArrayOutputStream buffer;
    private DeltaWriter writer;
    private long counted;
    private long startRevision;
    private long lastRevision;
    private long deltas;
    private long jsonBytes;
    private long storedBytes;

    DeltaSink(ObjectStore store, String prefix, Compression compression) {
        this.store = store;
        this.prefix = prefix;
        this.compression = compression;
    }

    /** Appends one revision's events; cuts the delta after it when it is full. */
    void write(List<DeltaEvent> group) throws IOException {
        if (writer == null) {
            open(group.get(0).modRevision());
        }
        for (DeltaEvent e : group) {
            writer.write(e);
        }
        lastRevision = group.get(0).modRevision();
        if (counted >= CUT_BYTES) {
            cut();
        }
    }

    private void open(long start) throws IOException {
        buffer = new ByteArrayOutputStream((int) (CUT_BYTES / 2));
        counted = 0;
        startRevision = start;
        OutputStream compressed = compression.compress(buffer);
        writer = new DeltaWriter(new FilterOutputStream(compressed) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                counted += len;
                out.write(b, off, len);
            }

            @Override
            public void write(int b) throws IOException {
                counted++;
                out.write(b);
            }
        });
    }

    private void cut() throws IOException {
        writer.close();
        String name = SnapshotName.of(
                        SnapshotKind.DELTA,
                        startRevision,
                        lastRevision,
                        WorkloadGenerator.timeOf(lastRevision).toInstant().truncatedTo(ChronoUnit.SECONDS),
                        compression,
                        false)
                .format();
        try (ObjectWriter object = store.create(prefix + name)) {
            buffer.writeTo(object.out());
            object.out().flush();
            object.commit();
        }
        deltas++;
        jsonBytes += counted - 32;
        storedBytes += buffer.size();
        writer = null;
        buffer = null;
    }

    long deltas() {
        return deltas;
    }

    /** Uncompressed JSON bytes of all deltas cut so far (without the hash trailers). */
    long jsonBytes() {
        return jsonBytes;
    }

    long storedBytes() {
        return storedBytes;
    }

    @Override
    public void close() throws IOException {
        if (writer != null) {
            cut();
        }
    }
}
