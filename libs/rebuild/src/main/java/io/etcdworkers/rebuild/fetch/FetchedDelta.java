package io.etcdworkers.rebuild.fetch;

import io.etcdworkers.format.DeltaSummary;
import io.etcdworkers.format.SnapshotObject;
import java.nio.file.Path;

/**
 * A delta downloaded to the scratch dir (still compressed) whose hash and events were
 * verified on the way: safe to apply.
 *
 * @param index position in the replay (0 = first delta)
 * @param object the delta in the store
 * @param file the local copy: raw, or decoded (see {@link DeltaPrefetcher.Mode})
 * @param summary what the verification pass found
 */
public record FetchedDelta(int index, SnapshotObject object, Path file, DeltaSummary summary) {}
