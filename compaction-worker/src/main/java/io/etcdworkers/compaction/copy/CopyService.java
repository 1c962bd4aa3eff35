package io.etcdworkers.compaction.copy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.files.FileTree;
import io.etcdworkers.files.OwnerOnly;
import io.etcdworkers.format.SnapshotCatalog;
import io.etcdworkers.format.SnapshotObject;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies the backups of one store prefix into another store, any provider to any provider, as
 * etcdbrctl's {@code copy} chooses and names them ({@link SourceBackups}; a name's {@code .final}
 * dropped in the target), and checks what it writes and what it finds: an object already in the
 * target with the same name is checked ({@link SnapshotCheck}) and kept when it is whole and of the
 * source's size, else replaced; a rerun copies only what is missing or wrong.
 */
public final class CopyService {
    private static final Logger LOG = LoggerFactory.getLogger(CopyService.class);
    private static final String FINAL = ".final";

    private final ObjectStore source;
    private final ObjectStore target;
    private final CopyConfig config;
    private final Clock clock;

    public CopyService(ObjectStore source, ObjectStore target, CopyConfig config, Clock clock) {
        this.source = source;
        this.target = target;
        this.config = config;
        this.clock = clock;
    }

    public CopyOutcome copy() throws InterruptedException {
        Boolean finalSnapshot = null;
        if (config.waitForFinal()) {
            finalSnapshot = new FinalSnapshotWait(source, config.sourcePrefix(), clock, FinalSnapshotWait.INTERVAL)
                    .await(config.waitTimeout());
            if (!finalSnapshot) {
                LOG.warn("copy: timed out waiting for a final full snapshot; copying what there is, as etcdbrctl does");
            }
        }
        String sourceBase = SnapshotCatalog.normalizePrefix(config.sourcePrefix());
        String targetBase = SnapshotCatalog.normalizePrefix(config.targetPrefix());
        List<SnapshotObject> listed =
                SnapshotCatalog.load(source, config.sourcePrefix()).snapshots();
        List<SnapshotObject> selected =
                SourceBackups.select(listed, config.maxBackups(), config.maxBackupAgeDays(), clock.instant());
        if (selected.isEmpty()) {
            LOG.info("copy: no source backups found in {} under \"{}\"", source.describe(), sourceBase);
        }
        Map<String, ObjectInfo> present = new HashMap<>();
        for (ObjectInfo info : target.list(targetBase)) {
            present.put(info.key(), info);
        }
        List<String> copied = Collections.synchronizedList(new ArrayList<>());
        List<String> replaced = Collections.synchronizedList(new ArrayList<>());
        List<String> skipped = Collections.synchronizedList(new ArrayList<>());
        List<String> checked = Collections.synchronizedList(new ArrayList<>());
        long totalBytes = selected.stream().mapToLong(SnapshotObject::size).sum();
        Path tempDir = config.dryRun() ? null : tempDir();
        try (CopyProgress progress = new CopyProgress(selected.size(), totalBytes, clock)) {
            ObjectCopy objects = new ObjectCopy(source, target, tempDir, progress);
            ExecutorService pool = Executors.newFixedThreadPool(config.parallel(), r -> {
                Thread t = new Thread(r, "copy");
                t.setDaemon(true);
                return t;
            });
            List<Future<?>> futures = new ArrayList<>();
            try {
                for (SnapshotObject object : selected) {
                    String relative = targetRelative(object.key().substring(sourceBase.length()));
                    String targetKey = targetBase + relative;
                    futures.add(pool.submit(() -> {
                        one(
                                objects,
                                object,
                                targetKey,
                                relative,
                                present.get(targetKey),
                                copied,
                                replaced,
                                skipped,
                                checked);
                        progress.objectDone();
                        return null;
                    }));
                }
                awaitAll(futures);
            } finally {
                pool.shutdownNow();
            }
            return new CopyOutcome(
                    listed.size(),
                    selected.size(),
                    sorted(copied),
                    sorted(replaced),
                    sorted(skipped),
                    sorted(checked),
                    config.dryRun() ? 0 : progress.bytesDone(),
                    finalSnapshot,
                    config.dryRun());
        } finally {
            if (tempDir != null) {
                removeQuietly(tempDir);
            }
        }
    }

    private void one(
            ObjectCopy objects,
            SnapshotObject object,
            String targetKey,
            String relative,
            ObjectInfo there,
            List<String> copied,
            List<String> replaced,
            List<String> skipped,
            List<String> checked)
            throws InterruptedException {
        boolean replacing = false;
        if (there != null) {
            String wrong = null;
            // sizes compared where both listings give one (a Swift dynamic large object lists as 0)
            if (there.size() != 0 && object.size() != 0 && there.size() != object.size()) {
                wrong = there.size() + " bytes, the source's has " + object.size();
            } else if (!config.dryRun()) {
                try {
                    objects.readBack(object, targetKey);
                } catch (WorkerException e) {
                    if (e.code() == ErrorCode.INTERRUPTED || e.code() == ErrorCode.STORE_UNAVAILABLE) {
                        throw e;
                    }
                    wrong = "it fails its check: " + e.getMessage();
                }
            }
            if (wrong == null) {
                LOG.info("copy: {} already in the target{}, skipped", targetKey, config.dryRun() ? "" : " and checked");
                skipped.add(relative);
                if (!config.dryRun()) {
                    checked.add(relative);
                }
                return;
            }
            LOG.warn("copy: {} in the target is wrong ({}): replacing it", targetKey, wrong);
            replacing = true;
        }
        if (config.dryRun()) {
            LOG.info("copy: would copy {} ({} bytes) to {}", object.key(), object.size(), targetKey);
        } else {
            ObjectCopy.Copied done = objects.copy(object, targetKey);
            LOG.info(
                    "copy: copied {} to {} ({} bytes, checked: {})",
                    object.key(),
                    targetKey,
                    done.size(),
                    done.checked());
            checked.add(relative);
        }
        copied.add(relative);
        if (replacing) {
            replaced.add(relative);
        }
    }

    /** The name in the target: the same, without {@code .final}. */
    static String targetRelative(String relative) {
        return relative.endsWith(FINAL) ? relative.substring(0, relative.length() - FINAL.length()) : relative;
    }

    /**
     * Waits for every object; the others go on when one fails, as etcdbrctl's copy does. Of several
     * failures the first not retryable wins, else the first.
     */
    private static void awaitAll(List<Future<?>> futures) throws InterruptedException {
        List<WorkerException> failures = new ArrayList<>();
        for (Future<?> future : futures) {
            try {
                future.get();
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof InterruptedException ie) {
                    throw ie;
                }
                if (cause instanceof WorkerException we) {
                    LOG.error("copy: {}", we.getMessage());
                    failures.add(we);
                } else if (cause instanceof RuntimeException re) {
                    throw re;
                } else if (cause instanceof Error err) {
                    throw err;
                } else {
                    throw new IllegalStateException(cause);
                }
            }
        }
        if (failures.isEmpty()) {
            return;
        }
        WorkerException first =
                failures.stream().filter(f -> !f.code().retryable()).findFirst().orElse(failures.get(0));
        if (failures.size() > 1) {
            throw new WorkerException(
                    first.code(),
                    first.getMessage() + " (and " + (failures.size() - 1) + " more failed: see the log)",
                    first);
        }
        throw first;
    }

    private Path tempDir() {
        try {
            OwnerOnly.createDirectories(config.tempDir());
            return OwnerOnly.createDirectory(config.tempDir().resolve("etcd-worker-copy-" + UUID.randomUUID()));
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO,
                    "cannot create a temp dir under " + config.tempDir() + ": " + e.getMessage(),
                    e);
        }
    }

    private static void removeQuietly(Path dir) {
        try {
            FileTree.delete(dir);
        } catch (IOException | RuntimeException e) {
            LOG.warn("copy: could not remove the temp dir {}: {}", dir, e.getMessage());
        }
    }

    private static List<String> sorted(List<String> names) {
        List<String> copy = new ArrayList<>(names);
        Collections.sort(copy);
        return copy;
    }
}
