package io.etcdworkers.rebuild.offline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.format.DeltaEvent;
import io.etcdworkers.format.RevisionGroup;
import io.etcdworkers.rebuild.sequence.RevisionSequence;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyspaceFoldTest {
    private static final OffsetDateTime T = OffsetDateTime.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path dir;

    private LiveKeys live;
    private KeyspaceFold fold;
    private RevisionSequence sequence;

    @BeforeEach
    void setUp() throws Exception {
        live = new LiveKeys(dir);
        fold = new KeyspaceFold(live);
        // base: a@1 created, b@2 created, a@3 updated, c@4 created then tombstoned at 5
        fold.baseEntry(new BaseKeyEntry(1, 0, false, b("a"), b("a1"), 1, 1, 0));
        fold.baseEntry(new BaseKeyEntry(2, 0, false, b("b"), b("b1"), 2, 1, 7));
        fold.baseEntry(new BaseKeyEntry(3, 0, false, b("a"), b("a2"), 1, 2, 0));
        fold.baseEntry(new BaseKeyEntry(4, 0, false, b("c"), b("c1"), 4, 1, 0));
        fold.baseEntry(new BaseKeyEntry(5, 0, true, b("c"), new byte[0], 0, 0, 0));
        fold.endBase(0);
        sequence = new RevisionSequence(fold.baseRevision());
    }

    @AfterEach
    void tearDown() throws Exception {
        live.close();
    }

    @Test
    void theBaseFoldsToItsLatestLiveVersions() throws Exception {
        assertThat(fold.baseRevision()).isEqualTo(5);
        assertThat(live.size()).isEqualTo(2);
        LiveKey a = live.get(b("a"));
        assertThat(new String(live.value(a), StandardCharsets.UTF_8)).isEqualTo("a2");
        assertThat(a.create()).isEqualTo(1);
        assertThat(a.mod()).isEqualTo(3);
        assertThat(a.version()).isEqualTo(2);
        assertThat(live.get(b("b")).lease()).isEqualTo(7);
        assertThat(live.get(b("c"))).isNull();
    }

    @Test
    void aCompactionRevisionAboveTheNewestEntryIsTheBaseRevision() throws Exception {
        try (LiveKeys other = new LiveKeys(Files.createDirectories(dir.resolve("other")))) {
            KeyspaceFold f = new KeyspaceFold(other);
            f.baseEntry(new BaseKeyEntry(3, 0, false, b("a"), b("x"), 3, 1, 0));
            f.endBase(9);
            assertThat(f.baseRevision()).isEqualTo(9);
        }
    }

    @Test
    void eventsContinueTheStateWithSubRevisionsInGroupOrder() throws Exception {
        apply(
                "d1",
                group(
                        6,
                        DeltaEvent.put(b("a"), b("a3"), 1, 6, 3, 0, T),
                        DeltaEvent.put(b("c"), b("c2"), 6, 6, 1, 0, T),
                        DeltaEvent.delete(b("b"), 6, T)));
        apply("d1", group(7, DeltaEvent.put(b("b"), b("b2"), 7, 7, 1, 9, T)));

        assertThat(sequence.revision()).isEqualTo(7);
        assertThat(live.get(b("a")).sub()).isZero();
        assertThat(live.get(b("c")).sub()).isEqualTo(1);
        assertThat(live.get(b("c")).create()).isEqualTo(6);
        LiveKey recreated = live.get(b("b"));
        assertThat(recreated.create()).isEqualTo(7);
        assertThat(recreated.version()).isEqualTo(1);
        assertThat(recreated.lease()).isEqualTo(9);
        assertThat(sequence.stats(1).events()).isEqualTo(4);
        assertThat(sequence.stats(1).revisions()).isEqualTo(2);
        assertThat(sequence.stats(1).largestGroupEvents()).isEqualTo(3);
        sequence.checkDeltaEnd("d1", 7);
    }

    @Test
    void aPutThatDoesNotContinueTheKeyIsRefused() {
        // a exists with create 1, version 2: a "create" of it is not a continuation
        assertThatThrownBy(() -> apply("d", group(6, DeltaEvent.put(b("a"), b("x"), 6, 6, 1, 0, T))))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.BACKUP_INCONSISTENT))
                .hasMessageContaining("revision 6 puts key a")
                .hasMessageContaining("gives 1 and 3");
    }

    @Test
    void deletingAKeyThatIsNotLiveIsRefused() {
        assertThatThrownBy(() -> apply("d", group(6, DeltaEvent.delete(b("c"), 6, T))))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.BACKUP_INCONSISTENT))
                .hasMessageContaining("deletes key c");
    }

    @Test
    void theSpillIsRewrittenWithOnlyLiveValuesAndReadsStayCorrect() throws Exception {
        byte[] big = new byte[1 << 20];
        for (int i = 0; i < 300; i++) {
            big[0] = (byte) i;
            long rev = 6 + i;
            apply("d", group(rev, DeltaEvent.put(b("a"), big.clone(), 1, rev, 3 + i, 0, T)));
        }
        assertThat(live.compactions()).isPositive();
        assertThat(live.value(live.get(b("a")))[0]).isEqualTo((byte) 299);
        assertThat(new String(live.value(live.get(b("b"))), StandardCharsets.UTF_8))
                .isEqualTo("b1");
        assertThat(live.liveValueBytes()).isEqualTo(big.length + 2);
    }

    /** What {@code RevisionPipeline} does with each group: admit, apply, record. */
    private void apply(String name, RevisionGroup group) throws Exception {
        if (sequence.admit(name, group)) {
            fold.apply(name, group);
            sequence.applied(group);
        }
    }

    private static RevisionGroup group(long revision, DeltaEvent... events) {
        return new RevisionGroup(revision, List.of(events));
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
