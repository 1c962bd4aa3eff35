package io.etcdworkers.format;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.format.codec.Compression;
import io.etcdworkers.format.codec.TruncatedStreamException;
import io.etcdworkers.store.ObjectStore;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Opens a snapshot object for reading: picks the codec from the name's suffix and checks that
 * the store delivers as many bytes as it listed, so a body cut short in transit is reported as
 * truncated rather than decoded as if it were whole.
 */
public final class SnapshotStreams {
    private SnapshotStreams() {}

    /** The codec for the object's suffix, or {@link ErrorCode#UNSUPPORTED_OBJECT}. */
    public static Compression codecOf(SnapshotObject object) {
        return object.name()
                .compression()
                .orElseThrow(() -> new WorkerException(
                        ErrorCode.UNSUPPORTED_OBJECT,
                        object.key() + ": unknown compression suffix \""
                                + object.name().compressionSuffix() + "\" (known: .gz, .zlib, .Z, or none)"));
    }

    /** The raw (still compressed) bytes, length-checked against the listing. */
    public static InputStream openRaw(ObjectStore store, SnapshotObject object) {
        return new ListedLengthInputStream(store.open(object.key()), object.size(), object.key());
    }

    /**
     * The decompressed content. Decoding errors surface on read as the codec's
     * {@link TruncatedStreamException} or {@link io.etcdworkers.format.codec.CorruptStreamException}.
     */
    public static InputStream openDecompressed(ObjectStore store, SnapshotObject object) {
        Compression codec = codecOf(object);
        InputStream raw = openRaw(store, object);
        if (!object.isFull()) {
            return codec.decompress(raw);
        }
        // a full snapshot is large: downloaded and decompressed on a core of its own, ahead of the
        // reader that hashes and writes it
        return new ReadAheadInputStream(codec.decompressFull(raw), "full-snapshot-read");
    }

    /** Fails at end of stream when fewer bytes came than the listing promised. */
    static final class ListedLengthInputStream extends FilterInputStream {
        private final long expected;
        private final String key;
        private long seen;

        ListedLengthInputStream(InputStream in, long expected, String key) {
            super(in);
            this.expected = expected;
            this.key = key;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b < 0) {
                checkComplete();
            } else {
                seen++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n < 0) {
                checkComplete();
            } else {
                seen += n;
            }
            return n;
        }

        private void checkComplete() throws TruncatedStreamException {
            if (seen < expected) {
                throw new TruncatedStreamException(
                        key + ": store delivered " + seen + " of " + expected + " listed bytes (body cut short)");
            }
        }
    }
}
