package io.etcdworkers.rebuild.sequence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.format.DeltaEvent;
import io.etcdworkers.format.RevisionGroup;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class RevisionSequenceTest {
    private static final OffsetDateTime T = OffsetDateTime.parse("2026-01-01T00:00:00Z");

    private final RevisionSequence sequence = new RevisionSequence(5);

    @Test
    void revisionsInTheBaseAreSkippedAndCounted() {
        assertThat(sequence.admit("d0", group(4, put("a", 4)))).isFalse();
        assertThat(sequence.admit("d0", group(5, put("a", 5), put("b", 5)))).isFalse();
        assertThat(sequence.revision()).isEqualTo(5);
        assertThat(sequence.stats(1).skippedEvents()).isEqualTo(3);
        // a delta wholly inside the base ends at the base's revision
        sequence.checkDeltaEnd("d0", 4);
    }

    @Test
    void theNextRevisionIsAdmittedAndCountedOnceApplied() {
        RevisionGroup six = group(6, put("a", 6), put("bb", 6));
        assertThat(sequence.admit("d1", six)).isTrue();
        assertThat(sequence.revision()).as("not applied yet").isEqualTo(5);
        sequence.applied(six);
        RevisionGroup seven = group(7, put("c", 7));
        assertThat(sequence.admit("d1", seven)).isTrue();
        sequence.applied(seven);

        SequenceStats stats = sequence.stats(1);
        assertThat(stats.finalRevision()).isEqualTo(7);
        assertThat(stats.revisions()).isEqualTo(2);
        assertThat(stats.events()).isEqualTo(3);
        assertThat(stats.largestGroupEvents()).isEqualTo(2);
        assertThat(stats.largestGroupBytes()).isEqualTo(six.payloadBytes());
        sequence.checkDeltaEnd("d1", 7);
    }

    @Test
    void aGapIsInconsistentNamingTheObjectAndTheMissingRevisions() {
        assertThatThrownBy(() -> sequence.admit("v2/Incr-8", group(8, put("z", 8))))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.BACKUP_INCONSISTENT))
                .hasMessageContaining("v2/Incr-8")
                .hasMessageContaining("revisions 6..7 are missing");
    }

    @Test
    void anExpectedOverlapWithTheSameEventsIsTakenOnceWhateverTheTimes() {
        sequence.expectOverlap("d1", "d2", 6, 7);
        for (long rev = 6; rev <= 7; rev++) {
            RevisionGroup g = group(rev, put("a", rev));
            assertThat(sequence.admit("d1", g)).isTrue();
            sequence.applied(g);
        }
        OffsetDateTime later = T.plusSeconds(30);
        for (long rev = 6; rev <= 7; rev++) {
            RevisionGroup again =
                    new RevisionGroup(rev, List.of(DeltaEvent.put(b("a"), b("v"), rev, rev, 1, 0, later)));
            assertThat(sequence.admit("d2", again))
                    .as("revision %d taken once", rev)
                    .isFalse();
        }
        RevisionGroup eight = group(8, put("b", 8));
        assertThat(sequence.admit("d2", eight)).isTrue();
        sequence.applied(eight);
        sequence.checkDeltaEnd("d2", 8);
        assertThat(sequence.overlaps()).containsExactly(new OverlapTaken("d1", "d2", 6, 7));
    }

    @Test
    void anExpectedOverlapThatDiffersNamesBothAndTheRevision() {
        sequence.expectOverlap("d1", "d2", 6, 7);
        for (long rev = 6; rev <= 7; rev++) {
            RevisionGroup g = group(rev, put("a", rev));
            sequence.admit("d1", g);
            sequence.applied(g);
        }
        assertThat(sequence.admit("d2", group(6, put("a", 6)))).isFalse();
        assertThatThrownBy(() -> sequence.admit("d2", group(7, put("other", 7))))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.BACKUP_INCONSISTENT))
                .hasMessageContaining("d1 and d2 overlap at revisions 6..7 but differ there, first at revision 7");
    }

    @Test
    void aRevisionAppliedTwiceIsAnOverlap() {
        RevisionGroup six = group(6, put("a", 6));
        sequence.admit("d1", six);
        sequence.applied(six);
        assertThatThrownBy(() -> sequence.admit("d2", group(6, put("a", 6))))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.BACKUP_INCONSISTENT))
                .hasMessageContaining("d2")
                .hasMessageContaining("deltas overlap");
    }

    @Test
    void aKeyTwiceInOneRevisionIsCorrupt() {
        assertThatThrownBy(() -> sequence.admit("d", group(6, put("a", 6), DeltaEvent.delete(b("a"), 6, T))))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CORRUPT_OBJECT))
                .hasMessageContaining("revision 6 names key a twice");
    }

    @Test
    void aDeltaThatEndsShortOfItsNameIsInconsistent() {
        RevisionGroup six = group(6, put("a", 6));
        sequence.admit("d", six);
        sequence.applied(six);
        assertThatThrownBy(() -> sequence.checkDeltaEnd("v2/Incr-6-8", 8))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.BACKUP_INCONSISTENT))
                .hasMessageContaining("v2/Incr-6-8")
                .hasMessageContaining("at revision 6 but the delta ends at 8");
    }

    private static DeltaEvent put(String key, long revision) {
        return DeltaEvent.put(b(key), b("v"), revision, revision, 1, 0, T);
    }

    private static RevisionGroup group(long revision, DeltaEvent... events) {
        return new RevisionGroup(revision, List.of(events));
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
