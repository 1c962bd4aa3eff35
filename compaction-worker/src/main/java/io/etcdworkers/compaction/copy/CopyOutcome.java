package io.etcdworkers.compaction.copy;

import java.util.List;

/**
 * What a copy did, by the objects' names relative to the prefix ({@code v2/Full-...}).
 *
 * @param sourceObjects snapshots listed in the source
 * @param selected those the backup selection took
 * @param copied written into the target (new, or replacing a wrong one), checked after the write
 * @param replaced the ones among {@code copied} whose name was taken by an object of the wrong size or content
 * @param skipped present in the target already, checked, not copied
 * @param checked every object checked in the target, whether just written or found there
 * @param bytesCopied bytes written into the target
 * @param finalSnapshot with {@code --wait-for-final-snapshot}: whether a final full snapshot was found
 *     (false: the wait timed out and the copy went on)
 * @param dryRun nothing was written: {@code copied} and {@code replaced} are what would have been
 */
public record CopyOutcome(
        int sourceObjects,
        int selected,
        List<String> copied,
        List<String> replaced,
        List<String> skipped,
        List<String> checked,
        long bytesCopied,
        Boolean finalSnapshot,
        boolean dryRun) {
    public CopyOutcome {
        copied = List.copyOf(copied);
        replaced = List.copyOf(replaced);
        skipped = List.copyOf(skipped);
        checked = List.copyOf(checked);
    }
}
