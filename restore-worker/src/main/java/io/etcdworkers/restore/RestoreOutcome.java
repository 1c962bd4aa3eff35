package io.etcdworkers.restore;

import io.etcdworkers.rebuild.engine.RebuildOutcome;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * A finished restore.
 *
 * @param rebuilt the verified database it placed
 * @param dataDir where the data dir was placed
 * @param placed what the placed data dir is good for
 * @param phases wall time of each phase, in order
 */
public record RestoreOutcome(RebuildOutcome rebuilt, Path dataDir, PlacedDataDir placed,
        Map<String, Duration> phases) {}
