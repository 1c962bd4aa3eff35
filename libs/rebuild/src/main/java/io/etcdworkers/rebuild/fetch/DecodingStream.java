package io.etcdworkers.rebuild.fetch;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.format.DeltaDecoder;
import io.etcdworkers.format.SnapshotStreams;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Semaphore;

/**
 * Deltas fetched as raw copies ({@link DeltaPrefetcher.Mode#RAW_COPY}) and decoded again on a
 * thread of their own, ahead of the consumer: the replay's stream, whose consumer spends its
 * time waiting for etcd.
 *
 * <p>The queue between the two is bounded by the bytes it holds ({@code budgetBytes}), so
 * decoding runs ahead without holding more than that in memory; a single group larger than the
 * budget still passes, alone. A delta's local copy is removed once its end was handed over.
 */
public final class DecodingStream implements DeltaStream {
    private static final Duration JOIN_WAIT = Duration.ofSeconds(30);

    private final DeltaPrefetcher prefetcher;
    private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(4096);
    private final Semaphore budget;
    private final int budgetUnits;
    private final Thread decoder;

    public DecodingStream(DeltaPrefetcher prefetcher, long budgetBytes) {
        this.prefetcher = prefetcher;
        this.budgetUnits = (int) Math.max(1, Math.min(Integer.MAX_VALUE, budgetBytes / 1024));
        this.budget = new Semaphore(budgetUnits);
        this.decoder = new Thread(this::decodeAll, "delta-decode");
        decoder.setDaemon(true);
        decoder.start();
    }

    @Override
    public DeltaItem next() throws InterruptedException {
        Object item = queue.take();
        if (item instanceof RuntimeException failure) {
            throw failure;
        }
        if (item instanceof Error failure) {
            throw failure; // the decoder's heap ran out: the reader must fail, not wait forever
        }
        if (item instanceof DeltaItem.DeltaEnd end) {
            deleteCopy(end.delta());
        }
        return (DeltaItem) item;
    }

    @Override
    public void release(DeltaItem.Group group) {
        budget.release(group.budgetUnits());
    }

    @Override
    public void close() throws InterruptedException {
        decoder.interrupt();
        prefetcher.close();
        decoder.join(JOIN_WAIT.toMillis());
    }

    private void decodeAll() {
        try {
            while (prefetcher.hasNext()) {
                FetchedDelta delta = prefetcher.next();
                queue.put(new DeltaItem.DeltaStart(delta));
                decode(delta);
                queue.put(new DeltaItem.DeltaEnd(delta));
            }
            queue.put(new DeltaItem.Done());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            try {
                queue.put(e);
            } catch (InterruptedException stopped) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void decode(FetchedDelta delta) throws InterruptedException {
        try (InputStream raw = Files.newInputStream(delta.file());
                InputStream content = SnapshotStreams.codecOf(delta.object()).decompress(raw)) {
            DeltaDecoder.decode(delta.object().key(), content, group -> {
                int units = (int) Math.min(budgetUnits, Math.max(1, group.payloadBytes() / 1024));
                budget.acquire(units);
                queue.put(new DeltaItem.Group(group, units));
            });
        } catch (OutOfMemoryError e) {
            throw HeapExhausted.whileDecoding(delta.object().key(), e);
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO,
                    "cannot read the local copy " + delta.file() + " of "
                            + delta.object().key() + ": " + e.getMessage(),
                    e);
        }
    }

    static void deleteCopy(FetchedDelta delta) {
        try {
            Files.deleteIfExists(delta.file());
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO,
                    "cannot remove the local copy " + delta.file() + " of "
                            + delta.object().key() + ": " + e.getMessage(),
                    e);
        }
    }
}
