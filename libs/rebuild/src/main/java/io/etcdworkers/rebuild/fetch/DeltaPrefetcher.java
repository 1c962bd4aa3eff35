package io.etcdworkers.rebuild.fetch;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.files.DiskFull;
import io.etcdworkers.files.OwnerOnly;
import io.etcdworkers.format.DecodedDeltaFile;
import io.etcdworkers.format.DeltaDecoder;
import io.etcdworkers.format.DeltaSummary;
import io.etcdworkers.format.SnapshotObject;
import io.etcdworkers.format.SnapshotStreams;
import io.etcdworkers.format.codec.TruncatedStreamException;
import io.etcdworkers.format.codec.WholeReads;
import io.etcdworkers.store.ObjectStore;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Downloads the deltas ahead of the engine that applies them, at most {@code maxFetchers} at a time and at most
 * {@code maxFetchers} ahead of the one being applied (bounded disk and memory), verifying
 * each on the way in: its bytes go through the decompressor and the decoder, so a delta is only
 * handed out once its hash and events are known good. {@link #next()} returns them strictly in
 * order. What is kept in the scratch file depends on the {@link Mode}.
 */
public final class DeltaPrefetcher implements AutoCloseable {
    /** Reads of one delta whose body ends early before the run fails. */
    static final int BODY_ATTEMPTS = 3;
    /**
     * How long {@link #close()} waits for a fetch thread stuck in a read that ignores interrupts
     * (a socket read): a fifth of the 25 s a SIGTERM leaves for the whole shutdown.
     */
    static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private static final Logger LOG = LoggerFactory.getLogger(DeltaPrefetcher.class);

    private final ObjectStore store;
    private final List<SnapshotObject> deltas;
    private final Path dir;
    private final int window;
    private final Mode mode;
    private final ExecutorService pool;
    private final List<Future<FetchedDelta>> futures = new ArrayList<>();
    /** Each delta is read whole and decompressed at once, in memory reused from one to the next. */
    private final WholeReads reads = new WholeReads();

    private int nextToHand;

    /** What a fetched delta's scratch file holds. */
    public enum Mode {
        /** The object's raw bytes (the replay decodes them again on its own thread, group by group). */
        RAW_COPY,
        /**
         * The decoded groups in {@link DecodedDeltaFile}'s form: the decoding, the costly part,
         * runs on the fetch threads in parallel (the offline fold reads them back in order).
         */
        DECODED
    }

    public DeltaPrefetcher(ObjectStore store, List<SnapshotObject> deltas, Path dir, int maxFetchers, Mode mode) {
        if (maxFetchers < 1) {
            throw new IllegalArgumentException("--max-fetchers must be at least 1");
        }
        this.store = store;
        this.deltas = List.copyOf(deltas);
        this.dir = dir;
        this.window = maxFetchers;
        this.mode = mode;
        AtomicInteger n = new AtomicInteger();
        this.pool = Executors.newFixedThreadPool(maxFetchers, r -> {
            Thread t = new Thread(r, "delta-fetch-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        for (int i = 0; i < Math.min(window, this.deltas.size()); i++) {
            submit(i);
        }
    }

    private void submit(int index) {
        futures.add(pool.submit(() -> fetch(index)));
    }

    public boolean hasNext() {
        return nextToHand < deltas.size();
    }

    /** The next delta in order, waiting for its download and verification. */
    public FetchedDelta next() throws InterruptedException {
        Future<FetchedDelta> future = futures.get(nextToHand);
        int following = nextToHand + window;
        if (following < deltas.size()) {
            submit(following);
        }
        nextToHand++;
        try {
            return future.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof WorkerException we) {
                throw we;
            }
            throw new WorkerException(
                    ErrorCode.UNEXPECTED,
                    "fetching " + deltas.get(nextToHand - 1).key() + " failed: " + e.getCause(),
                    e.getCause());
        } catch (CancellationException e) {
            throw new InterruptedException("fetch cancelled");
        }
    }

    /**
     * A body cut short in transit (the connection dropped after the headers) is past the SDK's
     * retries, so it is read again here, up to {@value #BODY_ATTEMPTS} times. An object stored
     * truncated fails the same way every time and ends as {@link ErrorCode#TRUNCATED_OBJECT}.
     */
    private FetchedDelta fetch(int index) throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                return fetchOnce(index);
            } catch (WorkerException e) {
                if (e.code() != ErrorCode.TRUNCATED_OBJECT || attempt >= BODY_ATTEMPTS) {
                    throw e;
                }
                LOG.warn(
                        "delta ended early, reading it again key={} attempt={} error={}",
                        deltas.get(index).key(),
                        attempt + 1,
                        e.getMessage());
            }
        }
    }

    private FetchedDelta fetchOnce(int index) throws IOException, InterruptedException {
        SnapshotObject delta = deltas.get(index);
        String suffix = mode == Mode.RAW_COPY ? "" : ".decoded";
        Path file = dir.resolve(String.format("%06d-%s%s", index, delta.name().format(), suffix));
        try {
            DeltaSummary summary = mode == Mode.RAW_COPY ? fetchRawCopy(delta, file) : fetchDecoded(delta, file);
            return new FetchedDelta(index, delta, file, summary);
        } catch (IOException e) {
            deleteCopy(file);
            throw new WorkerException(
                    ErrorCode.LOCAL_IO,
                    "cannot write " + file + " while fetching " + delta.key() + ": " + DiskFull.explain(e, dir),
                    e);
        } catch (OutOfMemoryError e) {
            deleteCopy(file);
            throw HeapExhausted.whileDecoding(delta.key(), e);
        } catch (RuntimeException | Error | InterruptedException e) {
            deleteCopy(file);
            throw e;
        }
    }

    /** Removes what a failed fetch wrote: the copy, and a decoded copy's value file. */
    private void deleteCopy(Path file) throws IOException {
        Files.deleteIfExists(file);
        if (mode == Mode.DECODED) {
            Files.deleteIfExists(DecodedDeltaFile.valuesOf(file));
        }
    }

    private DeltaSummary fetchDecoded(SnapshotObject delta, Path file) throws IOException, InterruptedException {
        try (DecodedDeltaFile.Writer out = new DecodedDeltaFile.Writer(file);
                InputStream raw = SnapshotStreams.openRaw(store, delta)) {
            DeltaSummary summary;
            try (InputStream content = decompressed(delta, raw)) {
                summary = DeltaDecoder.decode(delta.key(), content, group -> {
                    try {
                        out.write(group);
                    } catch (IOException e) {
                        throw new WorkerException(
                                ErrorCode.LOCAL_IO,
                                "cannot write " + file + " while decoding " + delta.key() + ": "
                                        + DiskFull.explain(e, dir),
                                e);
                    }
                });
            }
            drain(raw, delta.key());
            out.finish();
            return summary;
        }
    }

    private DeltaSummary fetchRawCopy(SnapshotObject delta, Path file) throws IOException, InterruptedException {
        try (OutputStream copy = OwnerOnly.newOutputStream(file);
                InputStream raw = new TeeInputStream(SnapshotStreams.openRaw(store, delta), copy, file, delta.key())) {
            DeltaSummary summary;
            try (InputStream content = decompressed(delta, raw)) {
                summary = DeltaDecoder.verify(delta.key(), content);
            }
            drain(raw, delta.key());
            return summary;
        }
    }

    /** The delta's content; closing it leaves {@code raw} open. */
    private InputStream decompressed(SnapshotObject delta, InputStream raw) throws InterruptedException {
        return reads.decompress(SnapshotStreams.codecOf(delta), new NotClosing(raw), delta.size());
    }

    /**
     * Reads the rest of the object (all of it when not verifying). Failures of the local copy
     * are already unchecked {@code LOCAL_IO}; what remains is the store's: a body shorter than
     * listed (retried by {@link #fetch}) or a broken read.
     */
    private static void drain(InputStream raw, String key) {
        try {
            raw.transferTo(OutputStream.nullOutputStream());
        } catch (TruncatedStreamException e) {
            throw new WorkerException(ErrorCode.TRUNCATED_OBJECT, key + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.STORE_UNAVAILABLE, key + ": read failed: " + e.getMessage(), e);
        }
    }

    @Override
    /**
     * Stops the fetch threads and waits for them to end, so that none still writes into the dir
     * when the caller removes it: a run that fails on one delta while others are being fetched
     * once left a file behind ("cannot remove scratch dir ... DirectoryNotEmptyException").
     */
    public void close() {
        pool.shutdownNow();
        try {
            if (!pool.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("delta fetch threads still running {} s after close dir={}", CLOSE_WAIT.toSeconds(), dir);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            reads.close(); // a buffer a stuck thread still reads is unmapped when it is done with it
        }
    }

    /** Lets a decompressor be closed (freeing its native memory) without closing what it reads. */
    private static final class NotClosing extends FilterInputStream {
        NotClosing(InputStream in) {
            super(in);
        }

        @Override
        public void close() {
            // the caller closes the underlying stream
        }
    }

    /**
     * Copies everything read to a second stream. A failed write of the copy is the local disk's
     * fault, never the object's: it is thrown unchecked as {@link ErrorCode#LOCAL_IO} so the
     * decoder reading through this stream cannot take it for corrupt content.
     */
    private static final class TeeInputStream extends FilterInputStream {
        private final OutputStream copy;
        private final Path file;
        private final String key;

        TeeInputStream(InputStream in, OutputStream copy, Path file, String key) {
            super(in);
            this.copy = copy;
            this.file = file;
            this.key = key;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                write(new byte[] {(byte) b}, 0, 1);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                write(b, off, n);
            }
            return n;
        }

        private void write(byte[] b, int off, int len) {
            try {
                copy.write(b, off, len);
            } catch (IOException e) {
                throw new WorkerException(
                        ErrorCode.LOCAL_IO,
                        "cannot write the local copy " + file + " of " + key + ": "
                                + DiskFull.explain(e, file.getParent()),
                        e);
            }
        }
    }
}
