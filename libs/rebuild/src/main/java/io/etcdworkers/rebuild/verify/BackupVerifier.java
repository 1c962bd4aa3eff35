package io.etcdworkers.rebuild.verify;

import io.etcdworkers.bolt.PageCheck;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.files.OwnerOnly;
import io.etcdworkers.format.DeltaDecoder;
import io.etcdworkers.format.DeltaSummary;
import io.etcdworkers.format.FullSnapshotReader;
import io.etcdworkers.format.FullSnapshotSummary;
import io.etcdworkers.format.SnapshotCatalog;
import io.etcdworkers.format.SnapshotObject;
import io.etcdworkers.format.SnapshotSelection;
import io.etcdworkers.format.SnapshotStreams;
import io.etcdworkers.format.codec.WholeReads;
import io.etcdworkers.store.ObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads everything a restore would use, end to end, without changing anything: the base's
 * hash, every delta's hash, JSON and events, whether each delta's events match its name, and
 * the contiguity of the chain. It goes on after a bad object so the report names all of them.
 * The base and the deltas are read on a thread per core, the deltas as a restore reads them
 * (whole, by libdeflate).
 */
public final class BackupVerifier {
    private static final Logger LOG = LoggerFactory.getLogger(BackupVerifier.class);
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);
    /** Deltas checked at once: one per core, at most four (a restore's default fetch threads). */
    static final int THREADS = Math.min(4, Math.max(1, Runtime.getRuntime().availableProcessors()));
    /** How long a stopped verification waits for the checks still running (a socket read ignores interrupts). */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private final ObjectStore store;
    private final String prefix;
    private final boolean skipHashCheck;
    private final Clock clock;
    private final Path workDir;
    private final Optional<Path> estimateDir;
    private final SizeEstimate.Builder estimate = new SizeEstimate.Builder();

    /**
     * @param workDir where each full snapshot checked is written (and removed) so its bbolt
     *     structure can be checked
     * @param estimateDir when present, also estimate what a rebuild needs in memory: the base's
     *     keys are counted there
     */
    public BackupVerifier(
            ObjectStore store,
            String prefix,
            boolean skipHashCheck,
            Clock clock,
            Path workDir,
            Optional<Path> estimateDir) {
        this.store = store;
        this.prefix = prefix;
        this.skipHashCheck = skipHashCheck;
        this.clock = clock;
        this.workDir = workDir;
        this.estimateDir = estimateDir;
    }

    /**
     * @throws WorkerException only for what stops verification as a whole (no snapshots, the
     *     store unreachable); problems of single objects are in the report
     */
    public VerifyReport verify() throws InterruptedException {
        SnapshotCatalog catalog = SnapshotCatalog.load(store, prefix);
        SnapshotSelection selection = catalog.select();
        LOG.atInfo()
                .setMessage("verifying")
                .addKeyValue("base", selection.base().key())
                .addKeyValue("deltas", selection.deltas().size())
                .addKeyValue("deltaBytes", selection.deltaBytes())
                .addKeyValue("baseRevision", selection.base().name().lastRevision())
                .addKeyValue("lastRevision", selection.lastRevision())
                .log();
        List<ObjectCheck> checks = checkObjects(selection.base(), selection.deltas(), true);
        List<OverlapComparison> overlaps = OverlapComparison.compareAll(store, selection, checks);
        logBad(checks);
        selection.problems().forEach(p -> LOG.error("broken chain: {}", p.describe()));
        Optional<SizeEstimate> size = estimateDir.map(d -> estimate.build());
        size.ifPresent(e -> LOG.info(
                "size estimate keysAtMost={} databaseBytesAtMost={} memoryLimitBytes={} " + "heapPercent={}",
                e.keysAtMost(),
                e.databaseBytesAtMost(),
                e.memoryLimitBytes(),
                e.heapPercent()));
        Optional<VerifyReport> older =
                checks.get(0).passed() ? Optional.empty() : olderChain(catalog, selection, checks);
        return new VerifyReport(selection, checks, selection.problems(), catalog.skipped(), size, older, overlaps);
    }

    /**
     * The newest base is bad: the report of the newest older chain whose base is sound (its deltas
     * checked where the newest chain's checks did not already), what a restore goes on with.
     */
    private Optional<VerifyReport> olderChain(
            SnapshotCatalog catalog, SnapshotSelection newest, List<ObjectCheck> newestChecks)
            throws InterruptedException {
        Map<SnapshotObject, ObjectCheck> known = new HashMap<>();
        newestChecks.forEach(c -> known.put(c.object(), c));
        for (SnapshotSelection chain : catalog.olderChains(newest.point(), newest.base())) {
            List<SnapshotObject> unchecked =
                    chain.deltas().stream().filter(d -> !known.containsKey(d)).toList();
            List<ObjectCheck> fresh = checkObjects(chain.base(), unchecked, false);
            logBad(fresh);
            ObjectCheck base = fresh.get(0);
            if (!base.passed()) {
                fresh.forEach(c -> known.put(c.object(), c));
                continue;
            }
            fresh.forEach(c -> known.put(c.object(), c));
            known.put(chain.base(), base);
            List<ObjectCheck> checks = new ArrayList<>();
            checks.add(base);
            chain.deltas().forEach(d -> checks.add(known.get(d)));
            LOG.warn(
                    "the newest full snapshot {} is bad: a restore goes on from the older chain from {} "
                            + "(revisions {}..{}, the newest chain's names reach {})",
                    newest.base().key(),
                    chain.base().key(),
                    chain.base().name().lastRevision(),
                    chain.lastRevision(),
                    newest.lastRevision());
            return Optional.of(new VerifyReport(
                    chain, checks, chain.problems(), List.of(), Optional.empty(), Optional.empty(), List.of()));
        }
        return Optional.empty();
    }

    private static void logBad(List<ObjectCheck> checks) {
        for (ObjectCheck check : checks) {
            if (!check.passed()) {
                LOG.atError()
                        .setMessage("bad object")
                        .addKeyValue("object", check.object().key())
                        .addKeyValue("code", check.failure().orElseThrow())
                        .addKeyValue("problem", check.message())
                        .log();
            }
        }
    }

    /**
     * Reads the base end to end into a file in {@code workDir} (removed after) and checks its bbolt
     * structure, every fault named with its page; for the estimate, the keys of its key bucket are
     * counted.
     */
    private ObjectCheck checkFull(SnapshotObject base, boolean forEstimate) {
        Path file = baseFile(estimateDir.filter(d -> forEstimate).orElse(workDir));
        try {
            FullSnapshotSummary summary;
            try (InputStream in = SnapshotStreams.openDecompressed(store, base);
                    OutputStream out = OwnerOnly.newOutputStream(file)) {
                summary = FullSnapshotReader.copy(base.key(), in, out, skipHashCheck);
            }
            List<String> faults = PageCheck.faults(file, PageCheck.ALL);
            if (!faults.isEmpty()) {
                faults.forEach(f -> LOG.error("bbolt structure of {}: {}", base.key(), f));
                return ObjectCheck.damaged(
                        base,
                        base.key() + ": its bbolt structure is damaged (" + faults.size() + " fault(s)), first: "
                                + faults.get(0),
                        faults);
            }
            if (forEstimate && estimateDir.isPresent()) {
                countBase(base, file, summary.databaseBytes());
            }
            return ObjectCheck.ok(base, 0, summary.totalBytes(), Optional.empty());
        } catch (WorkerException e) {
            return ObjectCheck.failedOrRethrow(base, e);
        } catch (IOException e) {
            return ObjectCheck.failed(base, ErrorCode.STORE_UNAVAILABLE, base.key() + ": " + e.getMessage());
        } finally {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                LOG.warn("cannot remove {}: {}", file, e.getMessage());
            }
        }
    }

    private static Path baseFile(Path dir) {
        try {
            return Files.createTempFile(OwnerOnly.createDirectories(dir), "verify-base-", ".db");
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO,
                    "cannot write a full snapshot under " + dir + " to check its bbolt structure: " + e.getMessage(),
                    e);
        }
    }

    private void countBase(SnapshotObject base, Path file, long databaseBytes) {
        try {
            estimate.base(file, databaseBytes);
        } catch (IOException | RuntimeException e) {
            LOG.warn(
                    "cannot count the keys of {} ({}): the size estimate counts the deltas' keys only",
                    base.key(),
                    e.getMessage());
        }
    }

    /**
     * Checks the base and the deltas on {@link #THREADS} threads (the decompression, hashing and
     * decoding are all CPU), the base first, and returns their checks in that order (the base's,
     * then the deltas' in the chain's), logging progress as they complete in that order. A failure
     * that stops the verification is thrown as the first object in that order that met it.
     */
    private List<ObjectCheck> checkObjects(SnapshotObject base, List<SnapshotObject> deltas, boolean forEstimate)
            throws InterruptedException {
        AtomicInteger n = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS, r -> {
            Thread t = new Thread(r, "verify-object-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        try (WholeReads reads = new WholeReads()) {
            try {
                List<Future<ObjectCheck>> futures = new ArrayList<>();
                futures.add(pool.submit(() -> checkFull(base, forEstimate)));
                for (SnapshotObject delta : deltas) {
                    futures.add(pool.submit(() -> checkDelta(delta, reads, forEstimate)));
                }
                List<ObjectCheck> checks = new ArrayList<>();
                Instant lastProgress = clock.instant();
                for (Future<ObjectCheck> future : futures) {
                    checks.add(result(future));
                    if (Duration.between(lastProgress, clock.instant()).compareTo(PROGRESS_EVERY) >= 0) {
                        lastProgress = clock.instant();
                        LOG.info("progress deltas={}/{}", checks.size() - 1, deltas.size());
                    }
                }
                return checks;
            } finally {
                pool.shutdownNow();
                if (!pool.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                    LOG.warn("object checks still running {} s after the verification stopped", CLOSE_WAIT.toSeconds());
                }
            }
        }
    }

    private static ObjectCheck result(Future<ObjectCheck> future) throws InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure; // a WorkerException that stops the verification, or a bug
            }
            if (e.getCause() instanceof Error failure) {
                throw failure;
            }
            if (e.getCause() instanceof InterruptedException) {
                throw new InterruptedException("delta check interrupted");
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Reads the delta as a restore's fetch threads do: whole, by libdeflate when it is gzip ({@link WholeReads}). */
    private ObjectCheck checkDelta(SnapshotObject delta, WholeReads reads, boolean forEstimate)
            throws InterruptedException {
        try (InputStream raw = SnapshotStreams.openRaw(store, delta);
                InputStream in = reads.decompress(SnapshotStreams.codecOf(delta), raw, delta.size())) {
            DeltaSummary summary = forEstimate && estimateDir.isPresent()
                    ? DeltaDecoder.decode(delta.key(), in, estimate.deltaSink())
                    : DeltaDecoder.verify(delta.key(), in);
            if (summary.events() == 0) {
                return ObjectCheck.failed(
                        delta,
                        ErrorCode.BACKUP_INCONSISTENT,
                        delta.key() + ": holds no events (etcd-backup-restore never writes an empty delta)");
            }
            if (summary.lastRevision() != delta.name().lastRevision()
                    || summary.firstRevision() < delta.name().startRevision()) {
                return ObjectCheck.failed(
                        delta,
                        ErrorCode.BACKUP_INCONSISTENT,
                        String.format(
                                "%s: name says revisions %d..%d but its events span %d..%d",
                                delta.key(),
                                delta.name().startRevision(),
                                delta.name().lastRevision(),
                                summary.firstRevision(),
                                summary.lastRevision()));
            }
            return ObjectCheck.ok(delta, summary.events(), summary.jsonBytes(), summary.lastTime());
        } catch (WorkerException e) {
            return ObjectCheck.failedOrRethrow(delta, e);
        } catch (IOException e) {
            return ObjectCheck.failed(delta, ErrorCode.STORE_UNAVAILABLE, delta.key() + ": " + e.getMessage());
        }
    }
}
