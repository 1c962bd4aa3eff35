package io.etcdworkers.rebuild.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.files.FileTree;
import io.etcdworkers.format.SnapshotCatalog;
import io.etcdworkers.format.SnapshotObject;
import io.etcdworkers.store.LocalDirectoryStore;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectStore;
import io.etcdworkers.store.ObjectWriter;
import io.etcdworkers.testsupport.Fixtures;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A run that fails on one delta while another is still being fetched: {@link DeltaPrefetcher#close()}
 * returns only once no fetch thread runs, so the caller can remove the dir and nothing writes
 * into it afterwards. Once it only interrupted them, and a thread still writing its copy made the
 * scratch dir's removal fail (seen in {@code RestoreFailuresIT} under etcd 3.5's timing). The
 * slow read here ignores interrupts, as a socket read does.
 */
@Timeout(60)
class DeltaPrefetcherCloseTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(DeltaPrefetcher.Mode.class)
    void closeWaitsForAFetchStillReadingWhenAnEarlierDeltaFailed(DeltaPrefetcher.Mode mode) throws Exception {
        Path bucket = Fixtures.copyBucket("plain", dir.resolve("bucket"));
        List<SnapshotObject> deltas = SnapshotCatalog.load(new LocalDirectoryStore(bucket), "")
                .select()
                .deltas();
        flip(bucket.resolve(deltas.get(0).key()), 1_000);
        SlowStore store =
                new SlowStore(new LocalDirectoryStore(bucket), deltas.get(1).key());
        Path downloads = Files.createDirectories(dir.resolve("downloads"));

        DeltaPrefetcher fetcher = new DeltaPrefetcher(store, deltas.subList(0, 2), downloads, 2, mode);
        assertThat(store.entered.await(10, TimeUnit.SECONDS))
                .as("second delta's read started")
                .isTrue();
        assertThatThrownBy(fetcher::next)
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.HASH_MISMATCH));
        fetcher.close();

        assertThat(store.finished)
                .as("close returned only after the slow read ended")
                .isTrue();
        FileTree.delete(downloads);
        assertThat(downloads).doesNotExist();
    }

    private static void flip(Path file, long position) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(position);
            int b = raf.read();
            raf.seek(position);
            raf.write(b ^ 0x01);
        }
    }

    /** A store whose first read of one key takes 2 s and ignores interrupts. */
    private static final class SlowStore implements ObjectStore {
        private final ObjectStore delegate;
        private final String slowKey;
        final CountDownLatch entered = new CountDownLatch(1);
        volatile boolean finished;

        SlowStore(ObjectStore delegate, String slowKey) {
            this.delegate = delegate;
            this.slowKey = slowKey;
        }

        @Override
        public String describe() {
            return delegate.describe();
        }

        @Override
        public List<ObjectInfo> list(String keyPrefix) {
            return delegate.list(keyPrefix);
        }

        @Override
        public InputStream open(String key) {
            InputStream in = delegate.open(key);
            if (!key.equals(slowKey)) {
                return in;
            }
            AtomicBoolean first = new AtomicBoolean(true);
            return new FilterInputStream(in) {
                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    if (first.getAndSet(false)) {
                        entered.countDown();
                        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2_000);
                        boolean interrupted = false;
                        while (System.nanoTime() < until) {
                            LockSupport.parkNanos(until - System.nanoTime());
                            // ignored until the read ends, as a blocking socket read ignores it
                            interrupted |= Thread.interrupted();
                        }
                        if (interrupted) {
                            Thread.currentThread().interrupt();
                        }
                        finished = true;
                    }
                    return super.read(b, off, len);
                }
            };
        }

        @Override
        public InputStream openRange(String key, long offset, long length) {
            return delegate.openRange(key, offset, length);
        }

        @Override
        public ObjectWriter create(String key) {
            return delegate.create(key);
        }

        @Override
        public void close() {
            delegate.close();
        }
    }
}
