package io.etcdworkers.restore.error;

/**
 * Every way a worker can end, and the process exit code that says so.
 *
 * <p>The codes are a contract: the job launcher's {@code podFailurePolicy} fails a Job at once
 * on the non-retryable ones, and {@code docs/reference.md} lists them. Never renumber.
 */
public enum ErrorCode {
    /** Unexpected failure (a bug or an unclassified runtime error). Retryable. */
    UNEXPECTED(1, true),
    /** Bad flags or configuration: fix the invocation. */
    USAGE(2, false),
    /** No full snapshot under the prefix: nothing to restore from. */
    NO_SNAPSHOTS(10, false),
    /** The chain of snapshots is not contiguous, or a replayed revision does not match. */
    BACKUP_INCONSISTENT(11, false),
    /** An object's trailing SHA-256 does not match its content, or the hash is missing. */
    HASH_MISMATCH(12, false),
    /** An object's content cannot be decoded (compression stream, JSON, event fields). */
    CORRUPT_OBJECT(13, false),
    /** An object uses a compression suffix this worker does not know. */
    UNSUPPORTED_OBJECT(14, false),
    /** An object ends before its content does (cut short in the store or in transit). */
    TRUNCATED_OBJECT(15, true),
    /** The store could not be reached or kept failing after retries. Retryable. */
    STORE_UNAVAILABLE(20, true),
    /** The bucket or container does not exist, or access to it is denied. */
    STORE_NOT_FOUND(21, false),
    /** An object listed at the start disappeared before it was read. Retryable (re-list). */
    OBJECT_VANISHED(22, true),
    /** The embedded etcd or its tools failed. */
    ETCD_FAILURE(30, true),
    /** The target data dir exists and is not empty, and --force was not given. */
    TARGET_NOT_EMPTY(31, false),
    /** The embedded etcd hit its space quota. */
    ETCD_QUOTA_EXCEEDED(32, false),
    /** Local disk trouble (scratch or target): full, not writable. */
    LOCAL_IO(33, true),
    /** Another worker holds the lock on the same target. */
    TARGET_LOCKED(34, true),
    /** Stopped by a signal (SIGTERM/SIGINT) before finishing; everything partial was removed. */
    INTERRUPTED(40, true);

    private final int exitCode;
    private final boolean retryable;

    ErrorCode(int exitCode, boolean retryable) {
        this.exitCode = exitCode;
        this.retryable = retryable;
    }

    public int exitCode() {
        return exitCode;
    }

    /** Whether running the same Job again may succeed without anyone changing anything. */
    public boolean retryable() {
        return retryable;
    }
}
