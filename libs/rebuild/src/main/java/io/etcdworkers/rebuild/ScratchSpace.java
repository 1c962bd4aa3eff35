package io.etcdworkers.rebuild;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How much scratch space a rebuild needs once the base is downloaded, and a warning at that
 * point when the scratch file system has less free: after minutes of folding or replaying, a
 * full scratch dir is an exit 33; said at the start, it is a flag to change.
 *
 * <p>The rule, measured (docs/tuning.md): both engines end with the verifying etcd's data dir
 * (a copy of the final database plus a 64 MB WAL segment etcd preallocates) beside the file the
 * placed dir is restored from (the offline engine's database, or the replay's snapshot of the
 * verified etcd); the offline engine also has its value spill and decoded deltas there, the
 * replay its growing database. On the 30,000-event benchmark bucket (base database 166 MB, final
 * 233-319 MB) both peaked at 633 MB in the scratch dir: the base plus 2.8 times the base.
 */
final class ScratchSpace {
    private static final Logger LOG = LoggerFactory.getLogger(ScratchSpace.class);

    /** etcd's WAL segment, preallocated whole where the WAL is ({@code --scratch-wal-dir} or the scratch). */
    static final long WAL_SEGMENT_BYTES = 64L * 1000 * 1000;

    /** What the rebuild still needs after the base database is downloaded: three times the base. */
    static final int BASE_MULTIPLE = 3;

    private ScratchSpace() {}

    /** Bytes the rest of the rebuild needs in the scratch dir, the base being there already. */
    static long needAfterBase(long baseBytes, boolean walElsewhere) {
        return BASE_MULTIPLE * baseBytes + (walElsewhere ? 0 : WAL_SEGMENT_BYTES);
    }

    /**
     * Logs a WARN naming both figures when the scratch dir's file system has less free than
     * {@link #needAfterBase}; returns whether it did. A failure to read the free space is no reason
     * to stop a restore: it is logged at DEBUG.
     */
    static boolean warnIfShort(Path scratch, boolean walElsewhere, long baseBytes) {
        long need = needAfterBase(baseBytes, walElsewhere);
        long free;
        try {
            free = Files.getFileStore(scratch).getUsableSpace();
        } catch (IOException e) {
            LOG.debug("cannot read the free space of {}", scratch, e);
            return false;
        }
        if (free >= need) {
            return false;
        }
        LOG.warn(
                "scratch dir may be too small: the rest of this restore needs about {} bytes there ({}x the {}-byte "
                        + "base database{}), the file system holding {} has {} free; it fails with exit 33 when it runs out "
                        + "(give --scratch-dir more room, or the Job a larger --scratch-size)",
                need,
                BASE_MULTIPLE,
                baseBytes,
                walElsewhere ? "" : " + a 64 MB WAL segment",
                scratch,
                free);
        return true;
    }
}
