package io.etcdworkers.format;

import java.util.Objects;

/**
 * Where a rebuild ends and what it does with damage on the way.
 *
 * @param stopAt the latest state, or an earlier revision or time
 * @param lastGood end at the last revision before the first damaged, missing or inconsistent
 *     delta (and list what was left out) instead of failing
 */
public record RestorePoint(StopAt stopAt, boolean lastGood) {
    /** Every delta after the base, failing on any damage: what a restore does without flags. */
    public static final RestorePoint LATEST = new RestorePoint(StopAt.LATEST, false);

    public RestorePoint {
        Objects.requireNonNull(stopAt, "stopAt");
    }

    /** Whether anything but the plain latest state was asked for. */
    public boolean isPointInTime() {
        return !stopAt.isLatest() || lastGood;
    }
}
