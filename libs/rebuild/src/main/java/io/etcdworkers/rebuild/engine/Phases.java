package io.etcdworkers.rebuild.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The wall time of each phase of one run, in the order they ended; every stage adds its own, from
 * any thread (phases may overlap).
 */
public final class Phases {
    private static final Logger LOG = LoggerFactory.getLogger(Phases.class);

    private final Clock clock;
    private final Map<String, Duration> took = new LinkedHashMap<>();

    public Phases(Clock clock) {
        this.clock = clock;
    }

    public Clock clock() {
        return clock;
    }

    /** When a phase starts; pass it to {@link #done}. */
    public Instant start() {
        return clock.instant();
    }

    public synchronized void done(String phase, Instant started) {
        Duration d = Duration.between(started, clock.instant());
        took.put(phase, d);
        LOG.atInfo()
                .setMessage("phase done")
                .addKeyValue("phase", phase)
                .addKeyValue("ms", d.toMillis())
                .log();
    }

    /** Runs one step as the phase named. */
    public void time(String phase, Runnable step) {
        Instant t = start();
        step.run();
        done(phase, t);
    }

    /** The phases so far. */
    public synchronized Map<String, Duration> snapshot() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(took));
    }
}
