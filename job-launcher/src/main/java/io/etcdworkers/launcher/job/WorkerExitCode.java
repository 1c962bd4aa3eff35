package io.etcdworkers.launcher.job;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The workers' exit codes, a fixed contract shared with restore-worker and compaction-worker.
 *
 * <p>The launcher keeps its own copy (it must not depend on the workers) and the Job's
 * {@code podFailurePolicy} fails a Job at once on every code that is not {@link #retryable()}.
 * Never renumber.
 */
public enum WorkerExitCode {
    DONE(0, true, "done, or nothing to do"),
    UNEXPECTED(1, true, "unexpected failure"),
    USAGE(2, false, "bad flags or configuration"),
    NO_SNAPSHOTS(10, false, "no full snapshot under the prefix"),
    BACKUP_INCONSISTENT(11, false, "the backup chain is not contiguous or does not replay"),
    HASH_MISMATCH(12, false, "an object's SHA-256 does not match"),
    CORRUPT_OBJECT(13, false, "an object cannot be decoded"),
    UNSUPPORTED_OBJECT(14, false, "an object uses an unknown compression"),
    TRUNCATED_OBJECT(15, true, "an object ends early"),
    STORE_UNAVAILABLE(20, true, "the store could not be reached"),
    STORE_NOT_FOUND(21, false, "the bucket does not exist or access is denied"),
    OBJECT_VANISHED(22, true, "a listed object disappeared"),
    /** compaction-worker only: a rerun would skip (the new snapshot is the base) and still not renew. */
    LEASE_NOT_RENEWED(23, false, "the new full snapshot was uploaded but the full-snapshot Lease was not renewed"),
    ETCD_FAILURE(30, true, "the embedded etcd failed"),
    TARGET_NOT_EMPTY(31, false, "the target data dir is not empty"),
    ETCD_QUOTA_EXCEEDED(32, false, "the embedded etcd hit its quota"),
    LOCAL_IO(33, true, "local disk trouble"),
    TARGET_LOCKED(34, true, "another worker holds the target"),
    INTERRUPTED(40, true, "stopped by a signal");

    private final int code;
    private final boolean retryable;
    private final String meaning;

    WorkerExitCode(int code, boolean retryable, String meaning) {
        this.code = code;
        this.retryable = retryable;
        this.meaning = meaning;
    }

    public int code() {
        return code;
    }

    /** Whether running the same Job again may succeed without anyone changing anything. */
    public boolean retryable() {
        return retryable;
    }

    public String meaning() {
        return meaning;
    }

    /** The codes on which a Job fails at once, ascending (the API server requires the order). */
    public static List<Integer> nonRetryableCodes() {
        return Arrays.stream(values()).filter(c -> !c.retryable).map(WorkerExitCode::code).sorted().toList();
    }

    public static Optional<WorkerExitCode> of(int code) {
        return Arrays.stream(values()).filter(c -> c.code == code).findFirst();
    }
}
