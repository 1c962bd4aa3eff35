package io.etcdworkers.format;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.format.codec.CorruptStreamException;
import io.etcdworkers.format.codec.TruncatedStreamException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;

/**
 * Streams a full snapshot (after decompression) to a sink while checking its trailing SHA-256,
 * the way etcd itself decides whether a snapshot has one: {@code size % 512 == 32}.
 *
 * <p>The sink receives every byte, trailer included, so {@code etcdctl snapshot restore} can
 * check it again. A snapshot without a hash is refused unless {@code skipHashCheck}.
 */
public final class FullSnapshotReader {
    private static final int SECTOR = 512;

    private FullSnapshotReader() {}

    /**
     * @param objectName named in error messages
     * @param out receives the decompressed bytes; may be null to only verify
     */
    public static FullSnapshotSummary copy(
            String objectName, InputStream decompressed, OutputStream out, boolean skipHashCheck) {
        HashTrailerInputStream in = new HashTrailerInputStream(decompressed);
        byte[] buf = new byte[64 * 1024];
        try {
            int n;
            while ((n = in.read(buf, 0, buf.length)) >= 0) {
                write(out, buf, n);
            }
            in.trailer().ifPresent(t -> write(out, t, t.length));
        } catch (TruncatedStreamException e) {
            throw new WorkerException(
                    ErrorCode.TRUNCATED_OBJECT,
                    objectName + ": compressed stream ends early (object cut short?): " + e.getMessage(),
                    e);
        } catch (CorruptStreamException e) {
            throw new WorkerException(
                    ErrorCode.CORRUPT_OBJECT, objectName + ": compressed stream is corrupt: " + e.getMessage(), e);
        } catch (InterruptedIOException e) {
            // the run is stopping (SIGTERM) while the snapshot was read ahead (ReadAheadInputStream)
            Thread.currentThread().interrupt();
            throw new WorkerException(ErrorCode.INTERRUPTED, objectName + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.STORE_UNAVAILABLE, objectName + ": read failed: " + e.getMessage(), e);
        } catch (UncheckedSink e) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO,
                    objectName + ": writing the snapshot failed: "
                            + e.getCause().getMessage(),
                    e.getCause());
        }
        long total = in.totalLength();
        boolean hasHash = total % SECTOR == HashTrailerInputStream.TRAILER_LENGTH;
        if (!hasHash) {
            if (!skipHashCheck) {
                throw new WorkerException(
                        ErrorCode.HASH_MISMATCH,
                        String.format(
                                "%s: %d bytes is not a database plus a 32-byte SHA-256 trailer (size %% 512 != 32): "
                                        + "cut short, or written without a hash (use --skip-hash-check to accept it)",
                                objectName, total));
            }
            return new FullSnapshotSummary(total, false, wholeDigest(in));
        }
        if (!in.hashMatches()) {
            if (skipHashCheck) {
                return new FullSnapshotSummary(total, true, HashTrailerInputStream.hex(in.contentDigest()));
            }
            throw new WorkerException(
                    ErrorCode.HASH_MISMATCH,
                    String.format(
                            "%s: SHA-256 of the database is %s but its trailer says %s: the snapshot is corrupt",
                            objectName,
                            HashTrailerInputStream.hex(in.contentDigest()),
                            HashTrailerInputStream.hex(in.trailer().orElseThrow())));
        }
        return new FullSnapshotSummary(total, true, HashTrailerInputStream.hex(in.contentDigest()));
    }

    private static String wholeDigest(HashTrailerInputStream in) {
        // without a hash, the held-back bytes are database bytes too
        return HashTrailerInputStream.hex(in.digestWith(in.trailer().orElse(new byte[0])));
    }

    private static void write(OutputStream out, byte[] bytes, int length) {
        if (out == null) {
            return;
        }
        try {
            out.write(bytes, 0, length);
        } catch (IOException e) {
            throw new UncheckedSink(e);
        }
    }

    /** Carries a sink failure out of a lambda so it is not mistaken for a store failure. */
    private static final class UncheckedSink extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UncheckedSink(IOException cause) {
            super(cause);
        }
    }
}
