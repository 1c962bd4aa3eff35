package io.etcdworkers.restore.restore;

import io.etcdworkers.restore.replay.ReplayStats;
import io.etcdworkers.restore.snapshot.SnapshotSelection;
import io.etcdworkers.restore.verify.KeyspaceDigest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * A finished restore.
 *
 * @param selection the base and deltas used
 * @param baseRevision the restored base database's actual revision
 * @param replay what the replay did
 * @param digest the keyspace at the final revision
 * @param dataDir where the data dir was placed (or where the scratch copy is, for compaction)
 * @param phases wall time of each phase, in order
 * @param engine the engine that built the database: "replay" or "offline"
 * @param engineNote why the replay ran when the offline engine was asked first; empty otherwise
 * @param placed what the placed data dir is good for; empty when nothing was placed (compaction)
 */
public record RestoreOutcome(
        SnapshotSelection selection,
        long baseRevision,
        ReplayStats replay,
        KeyspaceDigest digest,
        Path dataDir,
        Map<String, Duration> phases,
        String engine,
        String engineNote,
        Optional<PlacedDataDir> placed) {

    RestoreOutcome(SnapshotSelection selection, long baseRevision, ReplayStats replay, KeyspaceDigest digest,
            Path dataDir, Map<String, Duration> phases, String engine, String engineNote) {
        this(selection, baseRevision, replay, digest, dataDir, phases, engine, engineNote, Optional.empty());
    }

    RestoreOutcome withPhases(Path placedAt, Map<String, Duration> allPhases) {
        return new RestoreOutcome(selection, baseRevision, replay, digest, placedAt, allPhases, engine, engineNote,
                placed);
    }

    RestoreOutcome withPlaced(PlacedDataDir dir) {
        return new RestoreOutcome(selection, baseRevision, replay, digest, dataDir, phases, engine, engineNote,
                Optional.of(dir));
    }
}
