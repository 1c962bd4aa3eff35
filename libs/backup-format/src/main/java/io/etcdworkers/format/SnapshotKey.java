package io.etcdworkers.format;

import java.util.Optional;

/**
 * Reads a key relative to the store prefix as etcd-backup-restore lays them out: legacy
 * {@code v1/Backup-<time>/<name>} or current {@code v2/<name>}, each with an optional chunk
 * part ({@code <name>/<digits>}) that marks pieces of a GCS or Swift upload.
 *
 * <p>Unlike etcd-backup-restore, which searches the whole key for {@code v1/} or {@code v2/},
 * this takes the key relative to {@code <prefix>/}, so a prefix that itself contains such a
 * folder name cannot confuse it.
 */
public final class SnapshotKey {

    /** What a key turned out to be. */
    public sealed interface Parsed permits Snapshot, Chunk, Invalid {}

    /** A snapshot object. */
    public record Snapshot(SnapshotName name) implements Parsed {}

    /** A chunk of a multi-part upload: readers ignore these silently. */
    public record Chunk(String key) implements Parsed {}

    /** Not a snapshot: skipped with a warning naming the key and the reason. */
    public record Invalid(String key, String reason) implements Parsed {}

    private SnapshotKey() {}

    /**
     * @param key the full key, for messages
     * @param relative the key with {@code <prefix>/} removed
     */
    public static Parsed parse(String key, String relative) {
        if (relative.startsWith("v1/")) {
            String[] parts = relative.substring(3).split("/", -1);
            if (parts.length == 3 && isChunkIndex(parts[2])) {
                return new Chunk(key);
            }
            if (parts.length != 2 || !parts[0].startsWith("Backup-")) {
                return new Invalid(key, "expected v1/Backup-<time>/<name>");
            }
            return name(key, parts[1]);
        }
        if (relative.startsWith("v2/")) {
            String[] parts = relative.substring(3).split("/", -1);
            if (parts.length == 2 && isChunkIndex(parts[1])) {
                return new Chunk(key);
            }
            if (parts.length != 1) {
                return new Invalid(key, "expected v2/<name>");
            }
            return name(key, parts[0]);
        }
        return new Invalid(key, "not under a v1/ or v2/ folder");
    }

    private static Parsed name(String key, String name) {
        Optional<SnapshotName> parsed = SnapshotName.parse(name);
        if (parsed.isPresent()) {
            return new Snapshot(parsed.get());
        }
        return new Invalid(key, "not <Full|Incr>-<start>-<last>-<unixSeconds>[.suffix][.final] with start <= last");
    }

    private static boolean isChunkIndex(String part) {
        if (part.isEmpty()) {
            return false;
        }
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }
}
