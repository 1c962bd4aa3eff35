package io.etcdworkers.rebuild.offline;

import io.etcdworkers.bolt.BoltFiles;
import io.etcdworkers.bolt.BoltReader;
import io.etcdworkers.etcd.SnapshotRestorer;
import io.etcdworkers.files.OwnerOnly;
import io.etcdworkers.format.SnapshotSelection;
import io.etcdworkers.rebuild.engine.EngineSettings;
import io.etcdworkers.rebuild.engine.KeyPrefix;
import io.etcdworkers.rebuild.fetch.DecodedFileStream;
import io.etcdworkers.rebuild.fetch.DeltaPrefetcher;
import io.etcdworkers.rebuild.fetch.DeltaStream;
import io.etcdworkers.rebuild.sequence.RevisionPipeline;
import io.etcdworkers.rebuild.sequence.RevisionSequence;
import io.etcdworkers.rebuild.sequence.SequenceStats;
import io.etcdworkers.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replay-free build: folds the deltas into the base database's keyspace without running
 * etcd (every live key's latest value, create and mod revision, version and lease) and writes
 * the result as a compacted etcd database, as if etcd had replayed everything, compacted at the
 * last revision and defragmented.
 *
 * <p>Nothing is written until every delta was decoded, hash-checked and folded; {@link
 * OfflineEngine} still has a real etcd open the result and compares its keyspace with {@link
 * OfflineResult#expected()} before trusting it. Format surprises surface as {@link
 * io.etcdworkers.bolt.BoltFormatException}: refuse, never guess.
 */
public final class FoldWriter {
    private static final Logger LOG = LoggerFactory.getLogger(FoldWriter.class);

    /** Partitions folded at once when the fold went to disk: every core, up to four. */
    static final int FOLD_THREADS = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));

    private final ObjectStore store;
    private final EngineSettings settings;
    private final Clock clock;
    private final KeyPrefix keys;
    private final boolean hashTrailer;

    public FoldWriter(ObjectStore store, EngineSettings settings, Clock clock) {
        this(store, settings, clock, KeyPrefix.ALL, true);
    }

    /**
     * A fold that keeps only {@code keys}: the database it writes holds nothing else.
     *
     * @param hashTrailer whether the written database ends in its SHA-256, as a full snapshot
     *     does: what is uploaded or handed out needs it; a database only restored here and read
     *     back does not (its restore then skips the hash check)
     */
    public FoldWriter(ObjectStore store, EngineSettings settings, Clock clock, KeyPrefix keys, boolean hashTrailer) {
        this.store = store;
        this.settings = settings;
        this.clock = clock;
        this.keys = keys;
        this.hashTrailer = hashTrailer;
    }

    /**
     * @param baseFile the decompressed base snapshot (its hash trailer checked already)
     * @param scratch a private dir for downloads and the value spill
     * @param output where the database is written
     */
    public OfflineResult build(SnapshotSelection selection, Path baseFile, Path scratch, Path output)
            throws IOException, InterruptedException {
        Instant started = clock.instant();
        Path downloads = OwnerOnly.createDirectories(scratch.resolve("offline-deltas"));
        long maxHeap = Runtime.getRuntime().maxMemory();
        long budget = settings.foldMemoryBudget(maxHeap);
        if (settings.foldMemoryBytes() != EngineSettings.AUTO && budget > maxHeap - EngineSettings.HEAP_BESIDES_FOLD) {
            LOG.warn(
                    "--fold-memory of {} MiB is more than the JVM's heap ({} MiB) leaves beside the rest of the "
                            + "worker: a large keyspace will exhaust the heap; leave --fold-memory at auto",
                    budget >> 20,
                    maxHeap >> 20);
        }
        try (BoltReader base = BoltReader.open(baseFile);
                LiveKeys live = new LiveKeys(scratch)) {
            KeyspaceFold fold = new KeyspaceFold(live, keys, budget, scratch, EventPartitions.DEFAULT_COUNT);
            SequenceStats sequence;
            BaseDatabase.Summary summary;
            FoldedKeys folded;
            try {
                // the fetch threads download, decompress, hash-check and decode in parallel, starting
                // while this thread reads the base; this thread only reads their decoded files back,
                // in order, and folds
                try (DeltaStream deltas = new DecodedFileStream(new DeltaPrefetcher(
                        store, selection.deltas(), downloads, settings.maxFetchers(), DeltaPrefetcher.Mode.DECODED))) {
                    summary = BaseDatabase.fold(base, fold);
                    LOG.info(
                            "offline base folded revision={} entries={} {} leases={} foldMemoryMiB={}",
                            summary.revision(),
                            summary.entries(),
                            fold.progressDetail(),
                            summary.leaseIds().size(),
                            budget >> 20);
                    sequence = new RevisionPipeline("offline fold", clock, settings.progressEvery())
                            .run(deltas, new RevisionSequence(summary.revision()), fold, selection);
                }
                folded = fold.finish(settings.progressEvery(), FOLD_THREADS);
            } catch (IOException | InterruptedException | RuntimeException | Error e) {
                fold.abandon();
                throw e;
            }
            try (FoldedKeys keysOut = folded) {
                if (baseIsTheFold(selection, summary, keysOut, sequence, baseFile)) {
                    return baseAsIs(baseFile, summary, sequence, keysOut, fold, started);
                }
                CompactedDatabase.Written written = CompactedDatabase.write(
                        base,
                        keysOut,
                        summary.leaseIds(),
                        sequence.finalRevision(),
                        settings.leaseTtlSeconds(),
                        output);
                if (hashTrailer) {
                    BoltFiles.appendSha256Trailer(output);
                }
                Duration took = Duration.between(started, clock.instant());
                LOG.atInfo()
                        .setMessage("offline database written")
                        .addKeyValue("file", output)
                        .addKeyValue("bytes", written.bytes())
                        .addKeyValue("revision", sequence.finalRevision())
                        .addKeyValue("keys", written.keys())
                        .addKeyValue("leasesGranted", written.leasesGranted())
                        .addKeyValue("partitioned", fold.partitioned())
                        .addKeyValue("ms", took.toMillis())
                        .log();
                return new OfflineResult(
                        output,
                        written.bytes(),
                        hashTrailer,
                        summary.revision(),
                        sequence,
                        written.leasesGranted(),
                        fold.work(),
                        written.digest(),
                        written.bounds(),
                        written.sums(),
                        took);
            }
        }
    }

    /**
     * Whether the base's own database is what the fold would write: nothing was folded into it,
     * and it holds one live entry per key (a full snapshot taken right after a compaction, ours or
     * etcd-backup-restore's), every lease those keys name, no unfinished compaction, and its hash
     * trailer for {@code snapshot restore} to check. Then it is not rewritten: etcd restores and
     * serves the base itself, and the verification compares it with the keyspace read from it.
     */
    private boolean baseIsTheFold(
            SnapshotSelection selection,
            BaseDatabase.Summary summary,
            FoldedKeys folded,
            SequenceStats sequence,
            Path baseFile)
            throws IOException {
        return keys.isAll()
                && selection.deltas().isEmpty()
                && sequence.finalRevision() == summary.revision()
                && summary.entries() == folded.size()
                && !summary.compactionPending()
                && summary.leaseIds().containsAll(folded.leaseIds())
                && SnapshotRestorer.hasHashTrailer(Files.size(baseFile));
    }

    private OfflineResult baseAsIs(
            Path baseFile,
            BaseDatabase.Summary summary,
            SequenceStats sequence,
            FoldedKeys folded,
            KeyspaceFold fold,
            Instant started)
            throws IOException {
        CompactedDatabase.Expected expected = CompactedDatabase.expected(folded, sequence.finalRevision());
        long bytes = Files.size(baseFile) - BoltFiles.TRAILER_BYTES;
        Duration took = Duration.between(started, clock.instant());
        LOG.info(
                "offline fold: no delta, and the base holds one live entry per key ({}): the base's database is "
                        + "restored and verified as it is file={} bytes={} revision={} ms={}",
                summary.entries(),
                baseFile,
                bytes,
                sequence.finalRevision(),
                took.toMillis());
        return new OfflineResult(
                baseFile,
                bytes,
                true,
                summary.revision(),
                sequence,
                0,
                fold.work().withBaseAsIs(),
                expected.digest(),
                expected.bounds(),
                expected.sums(),
                took);
    }
}
