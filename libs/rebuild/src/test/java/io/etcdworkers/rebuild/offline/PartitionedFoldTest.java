package io.etcdworkers.rebuild.offline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.format.DeltaEvent;
import io.etcdworkers.format.RevisionGroup;
import io.etcdworkers.rebuild.engine.KeyPrefix;
import io.etcdworkers.rebuild.sequence.RevisionSequence;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A fold that outgrows its memory budget (at the first key, part way through the base, or in the
 * deltas) ends with exactly the keys, in both orders, that the fold on the heap ends with; and a
 * change that does not continue its key is reported as the heap fold reports it.
 */
class PartitionedFoldTest {
    private static final OffsetDateTime T = OffsetDateTime.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path dir;

    /** A random but consistent history: base entries (with tombstones) and delta revisions. */
    private record History(List<BaseKeyEntry> base, List<RevisionGroup> groups) {}

    @ParameterizedTest(name = "budget {0} bytes")
    @ValueSource(longs = {0, 20 * 150, 400 * 150})
    void aPartitionedFoldEndsWithTheKeysOfTheHeapFold(long budget) throws Exception {
        History h = history(new Random(budget + 11), 600, 2_000);
        List<FoldedKey> heapByRev = new ArrayList<>();
        List<FoldedKey> heapByKey = new ArrayList<>();
        Set<Long> heapLeases;
        try (LiveKeys live = new LiveKeys(Files.createDirectories(dir.resolve("heap")))) {
            KeyspaceFold fold = new KeyspaceFold(live);
            run(fold, h);
            assertThat(fold.partitioned()).isFalse();
            try (FoldedKeys keys = fold.finish(Duration.ofMinutes(1), 3)) {
                keys.byRevision(heapByRev::add);
                keys.byKey(heapByKey::add);
                heapLeases = keys.leaseIds();
            }
        }
        assertThat(heapByRev).hasSizeGreaterThan(200);

        Path parts = Files.createDirectories(dir.resolve("parts"));
        List<FoldedKey> byRev = new ArrayList<>();
        List<FoldedKey> byKey = new ArrayList<>();
        try (LiveKeys live = new LiveKeys(parts)) {
            KeyspaceFold fold = new KeyspaceFold(live, KeyPrefix.ALL, budget, parts, 8);
            run(fold, h);
            assertThat(fold.partitioned()).isTrue();
            assertThat(fold.work().partitions()).isEqualTo(8);
            try (FoldedKeys keys = fold.finish(Duration.ofMinutes(1), 3)) {
                assertThat(keys).isInstanceOf(PartitionedKeys.class);
                assertThat(keys.size()).isEqualTo(heapByRev.size());
                keys.byRevision(byRev::add);
                keys.byKey(byKey::add);
                assertThat(keys.leaseIds()).isEqualTo(heapLeases);
            }
        }
        assertSame(byRev, heapByRev);
        assertSame(byKey, heapByKey);
        try (Stream<Path> left = Files.walk(parts)) {
            assertThat(left.filter(Files::isRegularFile))
                    .as("partitions, runs and spills are removed")
                    .isEmpty();
        }
    }

    @Test
    void theEarliestInconsistentChangeOverAllPartitionsIsReportedAsTheHeapFoldReportsIt() throws Exception {
        History h = history(new Random(5), 300, 1_000);
        List<RevisionGroup> groups = new ArrayList<>(h.groups());
        long last = groups.get(groups.size() - 1).revision();
        // two changes that continue nothing, on keys in different partitions; the earlier one must be named
        groups.add(new RevisionGroup(last + 1, List.of(DeltaEvent.delete(b("absent-1"), last + 1, T))));
        groups.add(new RevisionGroup(last + 2, List.of(DeltaEvent.put(b("absent-2"), b("v"), 1, last + 2, 4, 0, T))));
        History broken = new History(h.base(), groups);

        String heapMessage;
        try (LiveKeys live = new LiveKeys(Files.createDirectories(dir.resolve("heap")))) {
            KeyspaceFold fold = new KeyspaceFold(live);
            heapMessage = assertThatThrownBy(() -> run(fold, broken))
                    .isInstanceOf(WorkerException.class)
                    .actual()
                    .getMessage();
        }
        assertThat(heapMessage).contains("revision " + (last + 1) + " deletes key absent-1");

        Path parts = Files.createDirectories(dir.resolve("parts"));
        try (LiveKeys live = new LiveKeys(parts)) {
            KeyspaceFold fold = new KeyspaceFold(live, KeyPrefix.ALL, 0, parts, 8);
            assertThat(fold.partitionOf(b("absent-1"))).isNotEqualTo(fold.partitionOf(b("absent-2")));
            run(fold, broken);
            assertThatThrownBy(() -> fold.finish(Duration.ofMinutes(1), 3))
                    .isInstanceOfSatisfying(
                            WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.BACKUP_INCONSISTENT))
                    .hasMessage(heapMessage);
        }
        try (Stream<Path> left = Files.walk(parts)) {
            assertThat(left.filter(Files::isRegularFile)).isEmpty();
        }
    }

    @Test
    void runsThatShareAKeyAreNeverMerged() throws Exception {
        Path a = dir.resolve("a");
        Path c = dir.resolve("c");
        FoldedKey k = new FoldedKey(b("k"), b("v"), 1, 1, 0, 1, 0);
        try (SortedRun.Writer w = new SortedRun.Writer(a)) {
            w.add(k);
        }
        try (SortedRun.Writer w = new SortedRun.Writer(c)) {
            w.add(new FoldedKey(b("k"), b("w"), 2, 2, 0, 1, 0));
        }
        assertThatThrownBy(() -> SortedRun.merge(List.of(a, c), FoldedKey.BY_KEY, x -> {}))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("key k");
    }

    @Test
    void aTruncatedPartitionIsALocalFailureNotAnEmptyKey() throws Exception {
        Path parts = dir.resolve("p");
        List<Path> files;
        try (EventPartitions p = new EventPartitions(parts, 2)) {
            p.add(EventPartitions.Kind.SET, -1, b("key"), b("value"), 1, 1, 0, 1, 0);
            files = p.finish();
            Path written = files.get(p.partition(b("key")));
            byte[] all = Files.readAllBytes(written);
            Files.write(written, Arrays.copyOf(all, all.length - 2));
            try (EventPartitions.Reader r = new EventPartitions.Reader(written)) {
                assertThatThrownBy(r::next).isInstanceOf(IOException.class).hasMessageContaining("ends inside");
            }
        }
    }

    @Test
    void aPartitionsHeapIsBoundedByTheKeysItsChangesCouldCreate() throws Exception {
        try (EventPartitions p = new EventPartitions(dir.resolve("bound"), 2)) {
            p.add(EventPartitions.Kind.SET, -1, b("k"), b("v"), 1, 1, 0, 1, 0);
            p.add(EventPartitions.Kind.PUT, 0, b("k"), b("w"), 1, 2, 0, 2, 0);
            p.add(EventPartitions.Kind.DELETE, 0, b("k"), new byte[0], 0, 3, 0, 0, 0);
            p.add(EventPartitions.Kind.UNSET, -1, b("k"), new byte[0], 0, 4, 0, 0, 0);
            assertThat(p.largestPartitionHeap()).isEqualTo(2 * (LiveKeys.HEAP_BYTES_PER_KEY + 1));
            p.finish();
        }
    }

    private static void assertSame(List<FoldedKey> actual, List<FoldedKey> expected) {
        assertThat(actual).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            FoldedKey a = actual.get(i);
            FoldedKey e = expected.get(i);
            assertThat(a.key()).isEqualTo(e.key());
            assertThat(a.value()).isEqualTo(e.value());
            assertThat(List.of(a.create(), a.mod(), (long) a.sub(), a.version(), a.lease()))
                    .as("key %s", KeyRules.printable(e.key()))
                    .isEqualTo(List.of(e.create(), e.mod(), (long) e.sub(), e.version(), e.lease()));
        }
    }

    private static void run(KeyspaceFold fold, History h) throws IOException {
        for (BaseKeyEntry e : h.base()) {
            fold.baseEntry(e);
        }
        fold.endBase(0);
        RevisionSequence sequence = new RevisionSequence(fold.baseRevision());
        for (RevisionGroup g : h.groups()) {
            if (sequence.admit("delta-" + (g.revision() / 100), g)) {
                fold.apply("delta-" + (g.revision() / 100), g);
                sequence.applied(g);
            }
        }
    }

    /** Keys with create revision and version tracked, so every change continues its key. */
    private static History history(Random random, int baseRevisions, int deltaRevisions) {
        record State(long create, long version) {}
        Map<String, State> live = new HashMap<>();
        List<BaseKeyEntry> base = new ArrayList<>();
        long rev = 0;
        for (int i = 0; i < baseRevisions; i++) {
            rev++;
            String key = "key-" + random.nextInt(400);
            State s = live.get(key);
            if (s != null && random.nextInt(5) == 0) {
                base.add(new BaseKeyEntry(rev, 0, true, b(key), new byte[0], 0, 0, 0));
                live.remove(key);
            } else {
                State next = s == null ? new State(rev, 1) : new State(s.create, s.version + 1);
                live.put(key, next);
                base.add(new BaseKeyEntry(
                        rev,
                        0,
                        false,
                        b(key),
                        value(random, key),
                        next.create,
                        next.version,
                        random.nextInt(4) == 0 ? 1 + random.nextInt(3) : 0));
            }
        }
        List<RevisionGroup> groups = new ArrayList<>();
        for (int i = 0; i < deltaRevisions; i++) {
            rev++;
            List<DeltaEvent> events = new ArrayList<>();
            Set<String> touched = new HashSet<>();
            int n = 1 + random.nextInt(3);
            for (int j = 0; j < n; j++) {
                String key = "key-" + random.nextInt(500);
                if (!touched.add(key)) {
                    continue;
                }
                State s = live.get(key);
                if (s != null && random.nextInt(4) == 0) {
                    events.add(DeltaEvent.delete(b(key), rev, T));
                    live.remove(key);
                } else {
                    State next = s == null ? new State(rev, 1) : new State(s.create, s.version + 1);
                    live.put(key, next);
                    events.add(DeltaEvent.put(
                            b(key),
                            value(random, key),
                            next.create,
                            rev,
                            next.version,
                            random.nextInt(4) == 0 ? 10 + random.nextInt(3) : 0,
                            T));
                }
            }
            groups.add(new RevisionGroup(rev, events));
        }
        return new History(base, groups);
    }

    private static byte[] value(Random random, String key) {
        byte[] v = new byte[random.nextInt(64)];
        random.nextBytes(v);
        return v;
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
