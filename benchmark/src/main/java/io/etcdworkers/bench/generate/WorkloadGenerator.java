package io.etcdworkers.bench.generate;

import io.etcdworkers.format.DeltaEvent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Synthesizes the watch events a busy Kubernetes API server causes, one revision at a time, on
 * top of a {@link KeyspaceModel}: mostly updates of existing objects (a hot few often), creates,
 * deletes, re-creates of deleted names; about 95 % of revisions carry one event, the rest 2 to 4
 * events on distinct keys (as one etcd transaction would). Deterministic for a seed.
 *
 * <p>The live key count is held near a target: deletes become likelier above it.
 */
public final class WorkloadGenerator {
    /** Event times start here (2024-01-01T00:00:00Z) and advance 5 ms per revision. */
    static final Instant EPOCH = Instant.ofEpochSecond(1_704_067_200L);

    private final KeyspaceModel model;
    private final ValueSource values;
    private final KeyNames names = new KeyNames();
    private final SplittableRandom random;
    private final int targetKeys;

    public WorkloadGenerator(KeyspaceModel model, ValueSource values, long seed, int targetKeys) {
        this.model = model;
        this.values = values;
        this.random = new SplittableRandom(seed);
        this.targetKeys = targetKeys;
    }

    /** A fresh key name and its first value stamp, for seeding the base snapshot. */
    public String freshKey() {
        return names.fresh(random);
    }

    /** The time the sidecar would have seen {@code revision}. */
    public static OffsetDateTime timeOf(long revision) {
        return OffsetDateTime.ofInstant(EPOCH.plusMillis(revision * 5), ZoneOffset.UTC);
    }

    /** The events of the next revision, already applied to the model. */
    public List<DeltaEvent> nextRevision() {
        long rev = model.revision() + 1;
        int events = random.nextInt(100) < 95 ? 1 : 2 + random.nextInt(3);
        List<DeltaEvent> group = new ArrayList<>(events);
        Set<String> used = new HashSet<>();
        OffsetDateTime time = timeOf(rev);
        while (group.size() < events) {
            DeltaEvent e = nextEvent(rev, group.size(), used, time);
            if (e != null) {
                group.add(e);
            }
        }
        model.advanceTo(rev);
        return group;
    }

    private DeltaEvent nextEvent(long rev, int index, Set<String> used, OffsetDateTime time) {
        double deleteShare = 0.13 * model.liveCount() / targetKeys;
        double roll = random.nextDouble();
        long stamp = rev * 8 + index;
        if (roll < deleteShare && model.liveCount() > 1) {
            String key = model.pickLive(random, false);
            if (!used.add(key)) {
                return null;
            }
            model.delete(key);
            return DeltaEvent.delete(bytes(key), rev, time);
        }
        String key;
        if (roll < deleteShare + 0.13) {
            key = names.fresh(random);
        } else if (roll < deleteShare + 0.15) {
            key = model.takeDeleted(random);
            if (key == null) {
                key = names.fresh(random);
            }
        } else {
            key = model.pickLive(random, random.nextInt(100) < 60);
        }
        if (!used.add(key)) {
            return null;
        }
        KeyState s = model.put(key, rev, stamp);
        return DeltaEvent.put(bytes(key), values.value(stamp), s.createRevision(), rev, s.version(), 0, time);
    }

    private static byte[] bytes(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }
}
