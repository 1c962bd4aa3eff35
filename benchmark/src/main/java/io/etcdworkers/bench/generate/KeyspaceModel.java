package io.etcdworkers.bench.generate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The generator's model of the etcd keyspace: every live key with its revisions and version,
 * and the keys deleted so far (candidates for re-creation). Picking a live key is O(1): the live
 * keys sit in a list with an index, removal swaps the last one in.
 */
public final class KeyspaceModel {
    private final Map<String, KeyState> live = new HashMap<>();
    private final Map<String, Integer> position = new HashMap<>();
    private final List<String> liveKeys = new ArrayList<>();
    private final List<String> deleted = new ArrayList<>();
    private long revision;

    /** The revision the model stands at. */
    public long revision() {
        return revision;
    }

    public void advanceTo(long newRevision) {
        if (newRevision < revision) {
            throw new IllegalArgumentException("revision goes back from " + revision + " to " + newRevision);
        }
        revision = newRevision;
    }

    public int liveCount() {
        return liveKeys.size();
    }

    public KeyState get(String key) {
        return live.get(key);
    }

    /** Records a put; creates the key when it is not live. */
    public KeyState put(String key, long rev, long stamp) {
        KeyState before = live.get(key);
        KeyState after = before == null ? new KeyState(rev, rev, 1, stamp) : before.updated(rev, stamp);
        if (before == null) {
            position.put(key, liveKeys.size());
            liveKeys.add(key);
        }
        live.put(key, after);
        return after;
    }

    /** Adds a key as an etcd holds it (loading the model from a restored database). */
    public void load(String key, KeyState state) {
        if (live.put(key, state) == null) {
            position.put(key, liveKeys.size());
            liveKeys.add(key);
        }
    }

    /** Records a delete of a live key. */
    public void delete(String key) {
        if (live.remove(key) == null) {
            throw new IllegalStateException("deleting a key that is not live: " + key);
        }
        int at = position.remove(key);
        String last = liveKeys.remove(liveKeys.size() - 1);
        if (!last.equals(key)) {
            liveKeys.set(at, last);
            position.put(last, at);
        }
        deleted.add(key);
    }

    /** A live key; {@code hot} skews the pick to the first few percent of the list (often-updated objects). */
    public String pickLive(SplittableRandom random, boolean hot) {
        int n = liveKeys.size();
        int i = hot ? random.nextInt(Math.max(1, n / 20)) : random.nextInt(n);
        return liveKeys.get(i);
    }

    /** Takes a previously deleted key that is not live (for a re-creation), or null. */
    public String takeDeleted(SplittableRandom random) {
        while (!deleted.isEmpty()) {
            int i = random.nextInt(deleted.size());
            String key = deleted.get(i);
            deleted.set(i, deleted.get(deleted.size() - 1));
            deleted.remove(deleted.size() - 1);
            if (!live.containsKey(key)) {
                return key;
            }
        }
        return null;
    }

    /** The live keys and their states, unordered. */
    public Map<String, KeyState> liveKeys() {
        return live;
    }
}
