package io.etcdworkers.restore.offline;

import io.etcdworkers.restore.bolt.BoltFiles;
import io.etcdworkers.restore.bolt.BoltReader;
import io.etcdworkers.restore.error.ErrorCode;
import io.etcdworkers.restore.error.WorkerException;
import io.etcdworkers.restore.replay.DeltaPrefetcher;
import io.etcdworkers.restore.replay.FetchedDelta;
import io.etcdworkers.restore.replay.ReplayConfig;
import io.etcdworkers.restore.snapshot.DecodedDeltaFile;
import io.etcdworkers.restore.snapshot.RevisionGroup;
import io.etcdworkers.restore.snapshot.SnapshotSelection;
import io.etcdworkers.restore.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replay-free engine: folds the deltas into the base database's keyspace without running
 * etcd (every live key's latest value, create and mod revision, version and lease) and writes
 * the result as a compacted etcd database, as if etcd had replayed everything, compacted at the
 * last revision and defragmented.
 *
 * <p>Nothing is written until every delta was decoded, hash-checked and folded; the caller
 * still has a real etcd open the result and compares its keyspace with {@link
 * OfflineResult#expected()} before trusting it. Format surprises surface as {@link
 * io.etcdworkers.restore.bolt.BoltFormatException}: refuse, never guess.
 */
public final class OfflineEngine {
    private static final Logger LOG = LoggerFactory.getLogger(OfflineEngine.class);

    private final ObjectStore store;
    private final ReplayConfig config;
    private final Clock clock;

    public OfflineEngine(ObjectStore store, ReplayConfig config, Clock clock) {
        this.store = store;
        this.config = config;
        this.clock = clock;
    }

    /**
     * @param baseFile the decompressed base snapshot (its hash trailer checked already)
     * @param scratch a private dir for downloads and the value spill
     * @param output where the database is written
     */
    public OfflineResult build(SnapshotSelection selection, Path baseFile, Path scratch, Path output)
            throws IOException, InterruptedException {
        Instant started = clock.instant();
        Path downloads = Files.createDirectories(scratch.resolve("offline-deltas"));
        try (BoltReader base = BoltReader.open(baseFile); LiveKeys live = new LiveKeys(scratch)) {
            KeyspaceFold fold = new KeyspaceFold(live);
            BaseDatabase.Summary summary = BaseDatabase.fold(base, fold);
            LOG.info("offline base folded revision={} entries={} liveKeys={} leases={}", summary.revision(),
                    summary.entries(), live.size(), summary.leaseIds().size());
            int deltas = foldDeltas(selection, fold, live, downloads);
            CompactedDatabase.Written written = CompactedDatabase.write(base, live, summary.leaseIds(),
                    fold.revision(), config.leaseTtlSeconds(), output);
            BoltFiles.appendSha256Trailer(output);
            Duration took = Duration.between(started, clock.instant());
            LOG.info("offline database written file={} bytes={} revision={} keys={} leasesGranted={} ms={}", output,
                    written.bytes(), fold.revision(), written.keys(), written.leasesGranted(), took.toMillis());
            return new OfflineResult(output, written.bytes(), summary.revision(), fold.revision(), deltas,
                    fold.revisions(), fold.events(), fold.skippedEvents(), fold.largestGroupEvents(),
                    fold.largestGroupBytes(), written.leasesGranted(), live.spillRewrites(), written.digest(), took);
        }
    }

    private int foldDeltas(SnapshotSelection selection, KeyspaceFold fold, LiveKeys live, Path downloads)
            throws IOException, InterruptedException {
        int total = selection.deltas().size();
        long first = fold.revision();
        long last = Math.max(selection.lastRevision(), first);
        Instant started = clock.instant();
        Instant lastLog = started;
        int done = 0;
        // the fetch threads download, decompress, hash-check and decode in parallel; this thread
        // only reads their decoded files back, in order, and folds
        try (DeltaPrefetcher fetcher = new DeltaPrefetcher(store, selection.deltas(), downloads,
                config.maxFetchers(), DeltaPrefetcher.Mode.DECODED)) {
            while (fetcher.hasNext()) {
                FetchedDelta delta = fetcher.next();
                String name = delta.object().key();
                try (DecodedDeltaFile.Reader groups = new DecodedDeltaFile.Reader(delta.file())) {
                    RevisionGroup group;
                    while ((group = groups.next()) != null) {
                        fold.apply(name, group);
                    }
                } catch (IOException e) {
                    throw new WorkerException(ErrorCode.LOCAL_IO, "folding " + name + " under " + downloads.getParent()
                            + " failed (decoded copy or value spill): " + e.getMessage(), e);
                }
                fold.checkDeltaEnd(name, delta.object().name().lastRevision());
                Files.deleteIfExists(delta.file());
                done++;
                Instant now = clock.instant();
                if (Duration.between(lastLog, now).compareTo(config.progressEvery()) >= 0 || done == total) {
                    logProgress(done, total, fold, live, first, last, Duration.between(started, now));
                    lastLog = now;
                }
            }
        }
        return done;
    }

    private static void logProgress(int done, int total, KeyspaceFold fold, LiveKeys live, long first, long last,
            Duration elapsed) {
        double seconds = Math.max(0.001, elapsed.toMillis() / 1000.0);
        double perSecond = (fold.revision() - first) / seconds;
        long eta = perSecond <= 0 ? -1 : Math.round((last - fold.revision()) / perSecond);
        LOG.info("offline fold deltas={}/{} events={} eventsPerSecond={} revision={}/{} eta={} liveKeys={} "
                + "liveValueBytes={}", done, total, fold.events(), Math.round(fold.events() / seconds), fold.revision(),
                last, eta < 0 ? "unknown" : eta + "s", live.size(), live.liveValueBytes());
    }
}
