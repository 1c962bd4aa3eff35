package io.etcdworkers.restore;

import io.etcdworkers.rebuild.bump.ChainEnd;
import io.etcdworkers.rebuild.bump.RevisionBump;
import io.etcdworkers.rebuild.engine.RebuildOutcome;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * A finished restore.
 *
 * @param rebuilt the verified database it placed
 * @param dataDir where the data dir was placed
 * @param placed what the placed data dir is good for
 * @param phases wall time of each phase, in order
 * @param bump the revision bump written into the placed database, when there was one
 * @param chainEnd the revision the bucket's chain reaches, when the default bump was computed from it
 */
public record RestoreOutcome(
        RebuildOutcome rebuilt,
        Path dataDir,
        PlacedDataDir placed,
        Map<String, Duration> phases,
        Optional<RevisionBump> bump,
        Optional<ChainEnd> chainEnd) {}
