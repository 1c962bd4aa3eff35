package io.etcdworkers.compaction.copy;

import io.etcdworkers.format.SnapshotObject;
import io.etcdworkers.store.ObjectInfo;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The source snapshots a copy takes, chosen as etcdbrctl's copy chooses them: a backup is a full
 * snapshot and every delta after it up to the next full snapshot (deltas before the oldest full
 * snapshot belong to none and are left out); the backups newest first by their full snapshot's
 * creation time; the first {@code maxBackups} of them (-1: all) whose full snapshot was created
 * after now minus {@code maxAgeDays} calendar days (-1: any age; a backup too old does not count).
 */
final class SourceBackups {
    private SourceBackups() {}

    /** A full snapshot and the deltas after it, newest first. */
    record Backup(SnapshotObject full, List<SnapshotObject> deltas) {}

    /**
     * @param snapshots every source snapshot, in the catalog's order (ascending by last revision)
     * @return the snapshots to copy: each chosen backup's full snapshot, then its deltas, newest backup first
     */
    static List<SnapshotObject> select(List<SnapshotObject> snapshots, int maxBackups, int maxAgeDays, Instant now) {
        Instant cutoff = maxAgeDays < 0
                ? null
                : now.atZone(ZoneOffset.UTC).minusDays(maxAgeDays).toInstant();
        List<SnapshotObject> chosen = new ArrayList<>();
        int count = 0;
        for (Backup backup : backups(snapshots)) {
            if (maxBackups >= 0 && count == maxBackups) {
                break;
            }
            if (cutoff != null && !backup.full().name().createdAt().isAfter(cutoff)) {
                continue;
            }
            chosen.add(backup.full());
            chosen.addAll(backup.deltas());
            count++;
        }
        return chosen;
    }

    /** The backups, newest first by their full snapshot's creation time. */
    static List<Backup> backups(List<SnapshotObject> snapshots) {
        List<Backup> backups = new ArrayList<>();
        List<SnapshotObject> deltas = new ArrayList<>();
        for (int i = snapshots.size() - 1; i >= 0; i--) {
            SnapshotObject snapshot = snapshots.get(i);
            if (excluded(snapshot.info())) {
                continue;
            }
            if (snapshot.isFull()) {
                backups.add(new Backup(snapshot, List.copyOf(deltas)));
                deltas.clear();
            } else {
                deltas.add(snapshot);
            }
        }
        backups.sort(
                Comparator.comparing((Backup b) -> b.full().name().createdAt()).reversed());
        return backups;
    }

    /**
     * Whether the listing marks this object as excluded from backups ({@link ObjectInfo#excludedBy()}):
     * etcdbrctl's copy lists with {@code List(false)}, which leaves such objects out, so a copy does
     * not take them, and a marked full snapshot starts no backup.
     */
    static boolean excluded(ObjectInfo info) {
        return info.excludedBy().isPresent();
    }
}
