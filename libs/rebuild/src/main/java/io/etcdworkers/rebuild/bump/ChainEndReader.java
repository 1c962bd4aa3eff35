package io.etcdworkers.rebuild.bump;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.format.DeltaDecoder;
import io.etcdworkers.format.DeltaSummary;
import io.etcdworkers.format.FullSnapshotReader;
import io.etcdworkers.format.SnapshotObject;
import io.etcdworkers.format.SnapshotStreams;
import io.etcdworkers.store.ObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bucket's latest revision from its chain, never from object names alone: an object whose
 * name claims a revision its content does not hold (a garbage {@code Incr-...-999999999}) must
 * not decide a revision bump.
 *
 * <p>The chain is the base and, in listing order, every object that continues it: a delta that
 * starts at or below the chain's end + 1 and ends above it, a full snapshot that ends above it.
 * Objects that do not continue the chain are not part of it. The chain's newest object is then
 * read: its SHA-256 trailer must match and its last revision must be the one its name says (the
 * last event's, for a delta; for a full snapshot, its database must reach it). When it does not,
 * the object before it in the chain is read, and so on; the base, which the rebuild has read,
 * ends the walk.
 */
public final class ChainEndReader {
    private static final Logger LOG = LoggerFactory.getLogger(ChainEndReader.class);

    private final ObjectStore store;
    private final Path scratch;

    /**
     * @param store where the objects are
     * @param scratch a dir for a full snapshot that must be read as a file
     */
    public ChainEndReader(ObjectStore store, Path scratch) {
        this.store = store;
        this.scratch = scratch;
    }

    /** The objects of {@code listing} (in restore order) that continue the chain from {@code base}, base first. */
    public static List<SnapshotObject> chain(List<SnapshotObject> listing, SnapshotObject base) {
        List<SnapshotObject> chain = new ArrayList<>();
        chain.add(base);
        long end = base.name().lastRevision();
        for (SnapshotObject s : listing) {
            if (s.key().equals(base.key()) || s.name().lastRevision() <= end) {
                continue;
            }
            if (s.isFull() || s.name().startRevision() <= end + 1) {
                chain.add(s);
                end = s.name().lastRevision();
            }
        }
        return chain;
    }

    /** Where the chain from {@code base} ends, confirmed by the content of its newest sound object. */
    public ChainEnd read(List<SnapshotObject> listing, SnapshotObject base) throws InterruptedException {
        List<SnapshotObject> chain = chain(listing, base);
        List<ChainEnd.Damaged> damaged = new ArrayList<>();
        SnapshotObject end = base;
        for (int i = chain.size() - 1; i > 0; i--) {
            SnapshotObject candidate = chain.get(i);
            Optional<String> problem = check(candidate);
            if (problem.isEmpty()) {
                end = candidate;
                break;
            }
            LOG.warn(
                    "the newest object of the snapshot chain does not hold what its name says, stepping back: "
                            + "object={} problem={}",
                    candidate.key(),
                    problem.get());
            damaged.add(new ChainEnd.Damaged(candidate.key(), problem.get()));
        }
        long revision = end.name().lastRevision();
        Set<String> counted = new HashSet<>();
        chain.forEach(s -> counted.add(s.key()));
        List<String> ignored = listing.stream()
                .filter(s -> s.name().lastRevision() > revision && !counted.contains(s.key()))
                .map(SnapshotObject::key)
                .toList();
        if (!ignored.isEmpty()) {
            LOG.warn(
                    "{} object(s) named above revision {} do not continue the snapshot chain and are not counted, e.g. {}",
                    ignored.size(),
                    revision,
                    ignored.get(0));
        }
        LOG.info("the snapshot chain ends at revision {}: {} (read and checked)", revision, end.key());
        return new ChainEnd(revision, end.key(), damaged, ignored);
    }

    /** What is wrong with {@code object}'s content; empty when it holds what its name says. */
    private Optional<String> check(SnapshotObject object) throws InterruptedException {
        try {
            return object.isFull() ? checkFull(object) : checkDelta(object);
        } catch (WorkerException e) {
            if (e.code() == ErrorCode.HASH_MISMATCH
                    || e.code() == ErrorCode.CORRUPT_OBJECT
                    || e.code() == ErrorCode.TRUNCATED_OBJECT
                    || e.code() == ErrorCode.UNSUPPORTED_OBJECT) {
                return Optional.of(e.getMessage());
            }
            throw e;
        }
    }

    private Optional<String> checkDelta(SnapshotObject delta) throws InterruptedException {
        DeltaSummary summary;
        try (InputStream in = SnapshotStreams.openDecompressed(store, delta)) {
            summary = DeltaDecoder.verify(delta.key(), in);
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.STORE_UNAVAILABLE, delta.key() + ": read failed: " + e.getMessage(), e);
        }
        if (summary.events() == 0 || summary.lastRevision() != delta.name().lastRevision()) {
            return Optional.of(String.format(
                    "its name says its last revision is %d, its last event's is %s",
                    delta.name().lastRevision(),
                    summary.events() == 0 ? "absent (no events)" : Long.toString(summary.lastRevision())));
        }
        return Optional.empty();
    }

    private Optional<String> checkFull(SnapshotObject full) {
        Path file = scratch.resolve("chain-end.db");
        try {
            try (InputStream in = SnapshotStreams.openDecompressed(store, full);
                    OutputStream out = Files.newOutputStream(file)) {
                FullSnapshotReader.copy(full.key(), in, out, false);
            }
            long latest;
            try {
                latest = BumpWriter.latestRevision(file);
            } catch (IOException e) {
                return Optional.of("its database cannot be read: " + e.getMessage());
            }
            if (latest < full.name().lastRevision()) {
                return Optional.of(String.format(
                        "its name says revision %d, its database ends at %d",
                        full.name().lastRevision(), latest));
            }
            return Optional.empty();
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO, full.key() + ": cannot write " + file + ": " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                LOG.warn("cannot remove {}: {}", file, e.getMessage());
            }
        }
    }
}
