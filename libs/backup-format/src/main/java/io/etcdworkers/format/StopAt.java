package io.etcdworkers.format;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Objects;

/**
 * The point a rebuild ends at: the latest state the backup holds, or an earlier one named by a
 * revision or by a time. A rebuild always ends at a revision boundary: a revision (one source
 * transaction) is applied whole or not at all.
 */
public sealed interface StopAt {

    /** The latest state: every delta after the base. */
    StopAt LATEST = new Latest();

    /** Whether {@code group}, the next revision after the state reached so far, lies past this point. */
    boolean beyond(RevisionGroup group);

    /** One phrase for logs and messages. */
    String describe();

    default boolean isLatest() {
        return this instanceof Latest;
    }

    record Latest() implements StopAt {
        @Override
        public boolean beyond(RevisionGroup group) {
            return false;
        }

        @Override
        public String describe() {
            return "the latest revision";
        }
    }

    /** The state right after revision {@code revision} was applied. */
    record AtRevision(long revision) implements StopAt {
        public AtRevision {
            if (revision < 1) {
                throw new IllegalArgumentException("a revision is at least 1: " + revision);
            }
        }

        @Override
        public boolean beyond(RevisionGroup group) {
            return group.revision() > revision;
        }

        @Override
        public String describe() {
            return "revision " + revision;
        }
    }

    /**
     * The state after every revision whose events the backup sidecar received at or before
     * {@code time}; the first revision received after it, and all that follow, are left out.
     */
    record AtTime(Instant time) implements StopAt {
        public AtTime {
            Objects.requireNonNull(time, "time");
        }

        @Override
        public boolean beyond(RevisionGroup group) {
            OffsetDateTime received = group.time();
            return received.toInstant().isAfter(time);
        }

        @Override
        public String describe() {
            return "time " + time;
        }
    }
}
