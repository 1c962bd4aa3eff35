package io.etcdworkers.restore.replay;

import io.etcdworkers.restore.error.ErrorCode;
import io.etcdworkers.restore.error.WorkerException;
import io.etcdworkers.restore.snapshot.DeltaDecoder;
import io.etcdworkers.restore.snapshot.SnapshotStreams;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Semaphore;

/**
 * The decode thread of the replay: takes verified deltas from the prefetcher in order, decodes
 * them from their local copies into revision groups and queues them for the apply thread.
 *
 * <p>The queue is bounded by the bytes it holds ({@code budgetBytes}), so decoding runs ahead
 * of applying without holding more than that in memory; a single group larger than the budget
 * still passes, alone.
 */
final class DecodeStage implements Runnable {
    private final DeltaPrefetcher prefetcher;
    private final BlockingQueue<ReplayItem> queue = new ArrayBlockingQueue<>(4096);
    private final Semaphore budget;
    private final int budgetUnits;

    DecodeStage(DeltaPrefetcher prefetcher, long budgetBytes) {
        this.prefetcher = prefetcher;
        this.budgetUnits = (int) Math.max(1, Math.min(Integer.MAX_VALUE, budgetBytes / 1024));
        this.budget = new Semaphore(budgetUnits);
    }

    /** The next item for the apply thread. */
    ReplayItem take() throws InterruptedException {
        return queue.take();
    }

    /** The apply thread is done with a group: its bytes may be used again. */
    void release(ReplayItem.Group group) {
        budget.release((int) group.budgetBytes());
    }

    @Override
    public void run() {
        try {
            while (prefetcher.hasNext()) {
                FetchedDelta delta = prefetcher.next();
                queue.put(new ReplayItem.DeltaStart(delta));
                decode(delta);
                queue.put(new ReplayItem.DeltaEnd(delta));
            }
            queue.put(new ReplayItem.Done());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            try {
                queue.put(new ReplayItem.Failure(e));
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
                queue.put(new ReplayItem.Group(group, units));
            });
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.LOCAL_IO, "cannot read the local copy " + delta.file() + " of "
                    + delta.object().key() + ": " + e.getMessage(), e);
        }
    }
}
