package io.etcdworkers.format;

import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectStore;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where the snapshots are when there are none under the prefix given: the advice a "no
 * snapshots" failure ends with. Looks below the prefix first (the objects already listed), then,
 * only when nothing there helps, at the whole container, so a wrong prefix names the right one.
 */
final class PrefixHint {
    /** Prefixes named in one message; more are counted. */
    static final int SHOWN = 3;

    private PrefixHint() {}

    /**
     * @param base the normalized prefix that was listed ({@code ""} or ending in a slash)
     * @param listed every key listed under {@code base} that was not a snapshot
     * @return the advice (prefixes in name order), empty when no snapshot is anywhere in the container
     */
    static Optional<String> find(ObjectStore store, String base, Collection<String> listed) {
        if (listed.stream()
                .anyMatch(k -> SnapshotName.parse(k.substring(base.length())).isPresent())) {
            return Optional.of(insideVersionFolder(base));
        }
        Set<String> prefixes = prefixesOf(listed);
        if (prefixes.isEmpty() && !base.isEmpty()) {
            for (ObjectInfo info : store.list("")) {
                prefixes.addAll(prefixesOf(List.of(info.key())));
            }
        }
        if (prefixes.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(advice(base, List.copyOf(prefixes)));
    }

    private static String insideVersionFolder(String base) {
        if (base.endsWith("v2/") && (base.length() == 3 || base.endsWith("/v2/"))) {
            String parent = base.substring(0, base.length() - 3);
            return "the prefix points at the v2/ folder itself: drop the v2 from the prefix ("
                    + (parent.isEmpty() ? "no --store-prefix" : "--store-prefix " + strip(parent)) + ")";
        }
        return "snapshot files lie directly " + (base.isEmpty() ? "in the container" : "under \"" + base + "\"")
                + ", which is the v2/ folder itself: drop the v2 from --store-container or --store-prefix (they "
                + "name the folder that holds v2/)";
    }

    private static String advice(String base, List<String> prefixes) {
        String verb = base.isEmpty() ? "add" : "use";
        if (prefixes.size() == 1) {
            String p = prefixes.get(0);
            return "found snapshots under " + (p.isEmpty() ? "the container's own v2/" : p + "/") + ": "
                    + (p.isEmpty() ? "drop --store-prefix" : verb + " --store-prefix " + p);
        }
        List<String> shown = prefixes.subList(0, Math.min(SHOWN, prefixes.size()));
        String more = prefixes.size() > SHOWN ? " and " + (prefixes.size() - SHOWN) + " more" : "";
        return "found snapshots under "
                + String.join(
                        ", ",
                        shown.stream()
                                .map(p -> p.isEmpty() ? "(no prefix)" : p + "/")
                                .toList()) + more + ": " + verb
                + " --store-prefix with the one to restore (e.g. --store-prefix "
                + shown.get(0) + ")";
    }

    /** The prefixes (without a trailing slash) that hold a snapshot in a {@code v1/} or {@code v2/} folder. */
    private static Set<String> prefixesOf(Collection<String> keys) {
        Set<String> found = new TreeSet<>();
        for (String key : keys) {
            int at = 0;
            while (at >= 0 && at < key.length()) {
                if ((key.startsWith("v1/", at) || key.startsWith("v2/", at))
                        && SnapshotKey.parse(key, key.substring(at)) instanceof SnapshotKey.Snapshot) {
                    found.add(strip(key.substring(0, at)));
                    break;
                }
                int slash = key.indexOf('/', at);
                at = slash < 0 ? -1 : slash + 1;
            }
        }
        return found;
    }

    private static String strip(String prefix) {
        return prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
    }
}
