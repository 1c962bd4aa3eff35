package io.etcdworkers.launcher.kube;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock that moves on by a fixed step each time it is read: time passes without anyone sleeping. */
final class TickingClock extends Clock {
    private final AtomicReference<Instant> now;
    private final Duration step;

    TickingClock(Instant start, Duration step) {
        this.now = new AtomicReference<>(start);
        this.step = step;
    }

    @Override
    public Instant instant() {
        return now.getAndUpdate(i -> i.plus(step));
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("UTC only");
    }
}
