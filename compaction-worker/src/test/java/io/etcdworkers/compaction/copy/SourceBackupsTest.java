package io.etcdworkers.compaction.copy;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.format.SnapshotName;
import io.etcdworkers.format.SnapshotObject;
import io.etcdworkers.store.ObjectInfo;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** etcdbrctl's choice of backups to copy, and its look for a final full snapshot among the 4 newest. */
class SourceBackupsTest {
    private static final Instant NOW = Instant.parse("2026-12-05T12:00:00Z");

    private static SnapshotObject snapshot(String name) {
        return new SnapshotObject(
                new ObjectInfo("p/v2/" + name, 10, Instant.EPOCH),
                SnapshotName.parse(name).orElseThrow());
    }

    /** In the catalog's order: ascending by last revision. */
    private static List<SnapshotObject> snapshots(String... names) {
        return Arrays.stream(names).map(SourceBackupsTest::snapshot).toList();
    }

    private static List<String> names(List<SnapshotObject> chosen) {
        return chosen.stream().map(s -> s.name().format()).toList();
    }

    private static final List<SnapshotObject> BUCKET = snapshots(
            "Incr-00000001-00000005-1796000000.gz", // before the oldest full snapshot: in no backup
            "Full-00000000-00000010-1796100000.gz",
            "Incr-00000011-00000020-1796100100.gz",
            "Full-00000000-00000030-1796400000.gz",
            "Incr-00000031-00000040-1796400100.gz",
            "Incr-00000041-00000050-1796400200.gz");

    @Test
    void everyBackupNewestFirstWithoutDeltasBeforeTheOldestFullSnapshot() {
        assertThat(names(SourceBackups.select(BUCKET, -1, -1, NOW)))
                .containsExactly(
                        "Full-00000000-00000030-1796400000.gz",
                        "Incr-00000041-00000050-1796400200.gz",
                        "Incr-00000031-00000040-1796400100.gz",
                        "Full-00000000-00000010-1796100000.gz",
                        "Incr-00000011-00000020-1796100100.gz");
    }

    @Test
    void snapshotsTheListingMarksExcludedAreNotCopied() {
        SnapshotObject markedFull = new SnapshotObject(
                new ObjectInfo("p/v2/Full-00000000-00000030-1796400000.gz", 10, Instant.EPOCH)
                        .excludedWhen(true, "blob index tag"),
                SnapshotName.parse("Full-00000000-00000030-1796400000.gz").orElseThrow());
        SnapshotObject markedDelta = new SnapshotObject(
                new ObjectInfo("p/v2/Incr-00000011-00000020-1796100100.gz", 10, Instant.EPOCH)
                        .excludedWhen(true, "custom metadata"),
                SnapshotName.parse("Incr-00000011-00000020-1796100100.gz").orElseThrow());
        List<SnapshotObject> bucket = List.of(BUCKET.get(1), markedDelta, markedFull, BUCKET.get(4), BUCKET.get(5));
        // as in etcdbrctl, whose listing leaves marked objects out: the marked delta is not copied,
        // and the deltas after the marked full snapshot join the backup before it
        assertThat(names(SourceBackups.select(bucket, -1, -1, NOW)))
                .containsExactly(
                        "Full-00000000-00000010-1796100000.gz",
                        "Incr-00000041-00000050-1796400200.gz",
                        "Incr-00000031-00000040-1796400100.gz");
    }

    @Test
    void theNewestNBackupsAndNoneForZero() {
        assertThat(names(SourceBackups.select(BUCKET, 1, -1, NOW)))
                .containsExactly(
                        "Full-00000000-00000030-1796400000.gz",
                        "Incr-00000041-00000050-1796400200.gz",
                        "Incr-00000031-00000040-1796400100.gz");
        assertThat(SourceBackups.select(BUCKET, 0, -1, NOW)).isEmpty();
    }

    @Test
    void anAgeLimitLooksAtTheFullSnapshotOnly() {
        // NOW is 1796472000: 1796400000 is under a day old, 1796100000 over four days
        Instant now = Instant.ofEpochSecond(1796472000);
        assertThat(names(SourceBackups.select(BUCKET, -1, 1, now)))
                .containsExactly(
                        "Full-00000000-00000030-1796400000.gz",
                        "Incr-00000041-00000050-1796400200.gz",
                        "Incr-00000031-00000040-1796400100.gz");
        assertThat(SourceBackups.select(BUCKET, -1, 0, now)).isEmpty();
        // a backup too old does not count toward the number
        assertThat(names(SourceBackups.select(
                        snapshots("Full-00000000-00000010-1796100000.gz", "Full-00000000-00000030-1796400000.gz"),
                        1,
                        1,
                        now)))
                .containsExactly("Full-00000000-00000030-1796400000.gz");
    }

    @Test
    void aFinalFullSnapshotCountsOnlyAmongTheFourNewest() {
        assertThat(FinalSnapshotWait.hasFinal(snapshots(
                        "Full-00000000-00000010-1796100000.gz.final",
                        "Full-00000000-00000020-1796100001.gz",
                        "Incr-00000021-00000025-1796100002.gz",
                        "Full-00000000-00000030-1796100003.gz",
                        "Full-00000000-00000040-1796100004.gz")))
                .isTrue();
        assertThat(FinalSnapshotWait.hasFinal(snapshots(
                        "Full-00000000-00000010-1796100000.gz.final",
                        "Full-00000000-00000020-1796100001.gz",
                        "Full-00000000-00000030-1796100003.gz",
                        "Full-00000000-00000040-1796100004.gz",
                        "Full-00000000-00000050-1796100005.gz")))
                .isFalse();
    }

    @Test
    void aFinalNameIsWrittenWithoutItsSuffix() {
        assertThat(CopyService.targetRelative("v2/Full-00000000-00000010-1796100000.gz.final"))
                .isEqualTo("v2/Full-00000000-00000010-1796100000.gz");
        assertThat(CopyService.targetRelative("v2/Incr-00000011-00000020-1796100100.gz"))
                .isEqualTo("v2/Incr-00000011-00000020-1796100100.gz");
    }
}
