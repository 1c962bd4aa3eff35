package io.etcdworkers.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.LocalDirectoryStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which snapshots a rebuild to a revision or a time selects, and what is refused. */
class SnapshotCatalogPointTest {
    @TempDir
    Path bucket;

    private SnapshotCatalog catalog;

    @BeforeEach
    void twoFullSnapshotsWithDeltas() throws IOException {
        for (String name : new String[] {
            "Full-00000000-00000100-1000",
            "Incr-00000101-00000200-1010",
            "Incr-00000201-00000300-1020",
            "Full-00000000-00000300-1030",
            "Incr-00000301-00000400-1040",
            "Incr-00000401-00000500-1050"
        }) {
            Path file = bucket.resolve("v2").resolve(name);
            Files.createDirectories(file.getParent());
            Files.write(file, new byte[] {1});
        }
        catalog = SnapshotCatalog.load(new LocalDirectoryStore(bucket), "");
    }

    private static RestorePoint revision(long r) {
        return new RestorePoint(new StopAt.AtRevision(r), false);
    }

    private static RestorePoint time(long unixSeconds) {
        return new RestorePoint(new StopAt.AtTime(Instant.ofEpochSecond(unixSeconds)), false);
    }

    @Test
    void aRevisionUsesTheLatestFullSnapshotAtOrBeforeItAndOnlyTheDeltasUpToIt() {
        SnapshotSelection s = catalog.select(revision(250));

        assertThat(s.base().key()).isEqualTo("v2/Full-00000000-00000100-1000");
        assertThat(s.deltas())
                .extracting(SnapshotObject::key)
                .containsExactly("v2/Incr-00000101-00000200-1010", "v2/Incr-00000201-00000300-1020");
        assertThat(s.targetRevision()).isEqualTo(250);

        assertThat(catalog.select(revision(300)).base().key()).isEqualTo("v2/Full-00000000-00000300-1030");
        assertThat(catalog.select(revision(300)).deltas()).isEmpty();
        assertThat(catalog.select(revision(100)).deltas()).isEmpty();
        assertThat(catalog.select(revision(401)).deltas())
                .extracting(SnapshotObject::key)
                .containsExactly("v2/Incr-00000301-00000400-1040", "v2/Incr-00000401-00000500-1050");
    }

    @Test
    void aRevisionOutsideTheSnapshotsIsAUsageErrorNamingWhatTheyCover() {
        for (long outside : new long[] {99, 501}) {
            assertThatThrownBy(() -> catalog.select(revision(outside)))
                    .isInstanceOfSatisfying(WorkerException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
                        assertThat(e.getMessage())
                                .contains(
                                        "revision " + outside,
                                        "cover revisions 100..500",
                                        "1970-01-01T00:16:40Z..1970-01-01T00:17:30Z");
                    });
        }
    }

    @Test
    void aTimeUsesTheLastFullSnapshotMadeByThenAndTheDeltasUpToTheFirstMadeAfterIt() {
        SnapshotSelection s = catalog.select(time(1015));

        assertThat(s.base().key()).isEqualTo("v2/Full-00000000-00000100-1000");
        // the delta made at 1020 may hold events from before 1015: a delta is named after its events
        assertThat(s.deltas())
                .extracting(SnapshotObject::key)
                .containsExactly("v2/Incr-00000101-00000200-1010", "v2/Incr-00000201-00000300-1020");

        SnapshotSelection atFull = catalog.select(time(1030));
        assertThat(atFull.base().key()).isEqualTo("v2/Full-00000000-00000300-1030");
        assertThat(atFull.deltas()).extracting(SnapshotObject::key).containsExactly("v2/Incr-00000301-00000400-1040");
        assertThat(catalog.select(time(1050)).deltas()).hasSize(2);
    }

    @Test
    void aTimeBeforeTheOldestFullSnapshotOrAfterTheNewestSnapshotIsRefused() {
        for (long outside : new long[] {999, 1051}) {
            assertThatThrownBy(() -> catalog.select(time(outside))).isInstanceOfSatisfying(WorkerException.class, e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
                assertThat(e.getMessage()).contains("cover revisions 100..500");
            });
        }
    }

    @Test
    void theSelectionBeforeABaseStartsFromTheFullSnapshotBeforeIt() {
        SnapshotSelection later = catalog.select(revision(350));
        assertThat(later.base().key()).isEqualTo("v2/Full-00000000-00000300-1030");

        SnapshotSelection earlier =
                catalog.selectBefore(revision(350), later.base()).orElseThrow();

        assertThat(earlier.base().key()).isEqualTo("v2/Full-00000000-00000100-1000");
        assertThat(earlier.deltas())
                .extracting(SnapshotObject::key)
                .containsExactly(
                        "v2/Incr-00000101-00000200-1010",
                        "v2/Incr-00000201-00000300-1020",
                        "v2/Incr-00000301-00000400-1040");
        assertThat(catalog.selectBefore(revision(350), earlier.base())).isEmpty();
    }

    @Test
    void aRevisionBetweenAChainsEndAndTheNextFullSnapshotIsInNoSnapshot() throws IOException {
        // a full snapshot drops the events since the last delta: that delta may end below the full's revision
        Files.delete(bucket.resolve("v2/Incr-00000201-00000300-1020"));
        Files.write(bucket.resolve("v2/Incr-00000201-00000280-1020"), new byte[] {1});
        SnapshotCatalog cut = SnapshotCatalog.load(new LocalDirectoryStore(bucket), "");

        assertThat(cut.select(revision(280)).lastRevision()).isEqualTo(280);
        assertThatThrownBy(() -> cut.select(revision(290))).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
            assertThat(e.getMessage())
                    .contains(
                            "revision 290 is in no snapshot",
                            "ends at revision 280",
                            "v2/Full-00000000-00000300-1030",
                            "holds revisions 300..300");
        });
    }

    @Test
    void toTheLastGoodAGapEndsTheSelectionAndIsListedWithEverythingAfterIt() throws IOException {
        Files.delete(bucket.resolve("v2/Incr-00000401-00000500-1050"));
        Files.write(bucket.resolve("v2/Incr-00000451-00000500-1050"), new byte[] {1});
        Files.write(bucket.resolve("v2/Incr-00000501-00000600-1060"), new byte[] {1});
        SnapshotCatalog gapped = SnapshotCatalog.load(new LocalDirectoryStore(bucket), "");

        assertThatThrownBy(() -> gapped.select(RestorePoint.LATEST).usable())
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.BACKUP_INCONSISTENT));
        SnapshotSelection s =
                gapped.select(new RestorePoint(StopAt.LATEST, true)).usable();

        assertThat(s.deltas()).extracting(SnapshotObject::key).containsExactly("v2/Incr-00000301-00000400-1040");
        assertThat(s.omitted())
                .extracting(Omission::firstRevision, Omission::lastRevision)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(401L, 450L),
                        org.assertj.core.groups.Tuple.tuple(451L, 500L),
                        org.assertj.core.groups.Tuple.tuple(501L, 600L));
        assertThat(s.omitted().get(0).object()).isEmpty();
        assertThat(s.omitted().get(0).code()).contains(ErrorCode.BACKUP_INCONSISTENT);
        assertThat(s.omitted().get(1).object()).contains("v2/Incr-00000451-00000500-1050");
    }
}
