package io.etcdworkers.restore.testsupport;

import io.etcdworkers.restore.snapshot.DeltaEvent;
import io.etcdworkers.restore.snapshot.DeltaWriter;
import io.etcdworkers.restore.snapshot.SnapshotKind;
import io.etcdworkers.restore.snapshot.SnapshotName;
import io.etcdworkers.restore.snapshot.codec.Compression;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A bucket for tests: the fixture's real full snapshot (600 seed keys at revision 601) plus
 * deltas synthesized after it with the project's writer. The builder keeps each key's create
 * revision and version as etcd would, so a correct replay reproduces them.
 */
public final class GeneratedBucket {
    private static final long BASE_REVISION = 601;

    private final Path root;
    private final Compression compression;
    private final Random random;
    private final Map<String, long[]> live = new HashMap<>();
    private long revision = BASE_REVISION;
    // in the past (2023), as real deltas are when a compaction names its snapshot after "now"
    private long time = 1_700_000_000L;
    private final List<DeltaEvent> pending = new ArrayList<>();

    private GeneratedBucket(Path root, Compression compression, long seed) {
        this.root = root;
        this.compression = compression;
        this.random = new Random(seed);
    }

    /** A bucket at {@code dir/v2} holding the fixture's full snapshot. */
    public static GeneratedBucket create(Path dir, Compression compression, long seed) {
        try {
            Files.createDirectories(dir.resolve("v2"));
            Files.copy(EtcdTestEnvironment.fullSnapshot(), dir.resolve("v2/Full-00000000-00000601-1795986606"),
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new GeneratedBucket(dir, compression, seed);
    }

    /**
     * Lets the builder update and delete keys of the base too: the 350 seed keys that are still
     * live at the fixture's end were written once (create = mod revision, version 1, no lease)
     * and are in the base exactly so.
     */
    public GeneratedBucket withSeedKeys() {
        for (ExpectedState.Key k : ExpectedState.keys()) {
            if (k.createRevision() <= BASE_REVISION) {
                String key = new String(java.util.Base64.getDecoder().decode(k.key()), StandardCharsets.UTF_8);
                live.put(key, new long[] {k.createRevision(), 1});
            }
        }
        return this;
    }

    public Path root() {
        return root;
    }

    public long revision() {
        return revision;
    }

    /** One revision: a put of {@code key} (create or update) with a random value of {@code size} bytes. */
    public GeneratedBucket put(String key, int size) {
        revision++;
        long[] meta = live.computeIfAbsent(key, k -> new long[] {revision, 0});
        meta[1]++;
        byte[] value = new byte[size];
        random.nextBytes(value);
        pending.add(DeltaEvent.put(key.getBytes(StandardCharsets.UTF_8), value, meta[0], revision, meta[1], 0, now()));
        return this;
    }

    /** One revision: a put with a lease id (the base has no leases: the restore must grant or keep it). */
    public GeneratedBucket putWithLease(String key, int size, long lease) {
        revision++;
        pending.add(putEvent(key, size, lease));
        return this;
    }

    /**
     * One revision with several changes, in order: {@code puts} (create or update, values of
     * random sizes up to {@code maxSize}, 0 allowed) then {@code deletes} of live keys. Keys
     * must be distinct, as in a real transaction.
     */
    public GeneratedBucket transaction(List<String> puts, List<String> deletes, int maxSize) {
        revision++;
        for (String key : puts) {
            pending.add(putEvent(key, random.nextInt(maxSize + 1), 0));
        }
        for (String key : deletes) {
            if (live.remove(key) == null) {
                throw new IllegalArgumentException("not live: " + key);
            }
            pending.add(DeltaEvent.delete(key.getBytes(StandardCharsets.UTF_8), revision, now()));
        }
        return this;
    }

    /** Keys created by this builder that are live now, in no particular order. */
    public List<String> liveKeys() {
        return new ArrayList<>(live.keySet());
    }

    private DeltaEvent putEvent(String key, int size, long lease) {
        long[] meta = live.computeIfAbsent(key, k -> new long[] {revision, 0});
        meta[1]++;
        byte[] value = new byte[size];
        random.nextBytes(value);
        return DeltaEvent.put(key.getBytes(StandardCharsets.UTF_8), value, meta[0], revision, meta[1], lease, now());
    }

    /** One revision: a delete of a live key. */
    public GeneratedBucket delete(String key) {
        if (live.remove(key) == null) {
            throw new IllegalArgumentException("not live: " + key);
        }
        revision++;
        pending.add(DeltaEvent.delete(key.getBytes(StandardCharsets.UTF_8), revision, now()));
        return this;
    }

    /** {@code updates} rounds of puts over {@code keys} hot keys: a lot of history for few live keys. */
    public GeneratedBucket hotKeys(int keys, int updates, int valueSize) {
        for (int round = 0; round < updates; round++) {
            for (int k = 0; k < keys; k++) {
                put("/registry/configmaps/hot/cm-" + k, valueSize);
            }
        }
        return this;
    }

    /** Writes the events so far as one delta object and returns its key. */
    public String cutDelta() {
        if (pending.isEmpty()) {
            throw new IllegalStateException("no events since the last delta");
        }
        long start = pending.get(0).modRevision();
        SnapshotName name = SnapshotName.of(SnapshotKind.DELTA, start, revision, Instant.ofEpochSecond(time++),
                compression, false);
        Path file = root.resolve("v2").resolve(name.format());
        try (OutputStream out = compression.compress(Files.newOutputStream(file));
                DeltaWriter writer = new DeltaWriter(out)) {
            for (DeltaEvent event : pending) {
                writer.write(event);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        pending.clear();
        return "v2/" + name.format();
    }

    /** Live keys created by this builder (the 600 seed keys of the base are not counted). */
    public int liveGeneratedKeys() {
        return live.size();
    }

    private OffsetDateTime now() {
        return OffsetDateTime.ofInstant(Instant.ofEpochSecond(time, random.nextInt(1_000_000_000)), ZoneOffset.UTC);
    }
}
