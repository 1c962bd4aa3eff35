package io.etcdworkers.contract;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Every way a worker can fail, and the process exit code that says so (0 is success, not listed).
 *
 * <p>The codes are a contract: the job launcher's {@code podFailurePolicy} fails a Job at once
 * on the non-retryable ones, the workers' {@code --help} lists them from here, and
 * {@code docs/reference.md} is their spec (tests hold the enum to its table). Never renumber.
 */
public enum ErrorCode {
    UNEXPECTED(1, true, "a bug or an unclassified error; the log has the stack trace"),
    USAGE(
            2,
            false,
            "bad flags or configuration (also: etcd binaries or store credentials missing, "
                    + "an unknown storage provider)"),
    NO_SNAPSHOTS(10, false, "no full snapshot under the prefix"),
    BACKUP_INCONSISTENT(11, false, "gap or overlap between snapshots, or a replayed revision that does not match"),
    HASH_MISMATCH(12, false, "an object's SHA-256 trailer does not match, or a full snapshot has none"),
    CORRUPT_OBJECT(13, false, "an object that cannot be decoded (compression, JSON, event), though its hash matches"),
    UNSUPPORTED_OBJECT(14, false, "an object this worker does not read (an unknown compression suffix)"),
    /** Retryable: the cut may have happened in transit. */
    TRUNCATED_OBJECT(15, true, "an object cut short, in the store or in transit"),
    STORE_UNAVAILABLE(20, true, "the store failed after retries (5xx, resets, timeouts)"),
    STORE_NOT_FOUND(21, false, "the bucket or container does not exist, or access is denied"),
    /** Retryable: a rerun lists again and no longer sees the object garbage collection took. */
    OBJECT_VANISHED(22, true, "an object listed at the start disappeared (garbage collection); run again"),
    /**
     * Compaction only. Not retryable: a rerun finds the new snapshot as its base, skips, and leaves
     * the Lease as it is.
     */
    LEASE_NOT_RENEWED(
            23,
            false,
            "compaction: the new full snapshot was uploaded, but the full-snapshot Lease " + "was not renewed"),
    /** Copy only. Retryable: a rerun lists the source again and copies what is missing. */
    SOURCE_CHANGED(
            24,
            true,
            "copy: a source object changed while it was copied; nothing of it is visible in the target: run again"),
    /** Copy only. Not retryable: someone must change the target's permissions or retention first. */
    STORE_WRITE_REFUSED(
            25,
            false,
            "copy: the target store refused a write (permission, an immutable or retained object); the message names it"),
    ETCD_FAILURE(30, true, "the scratch etcd or its tools failed, died or hung"),
    TARGET_NOT_EMPTY(31, false, "the data dir exists and is not empty; --force replaces it"),
    ETCD_QUOTA_EXCEEDED(32, false, "the scratch etcd ran out of quota: raise --embedded-etcd-quota-bytes"),
    LOCAL_IO(33, true, "local disk trouble (full, not writable) in the scratch or target dir"),
    TARGET_LOCKED(34, true, "another worker holds <data-dir>.lock"),
    OUT_OF_MEMORY(
            35,
            false,
            "the worker's Java heap ran out (scratch and partial files removed): give the Job "
                    + "more memory (job-launcher --memory-limit), or the JVM a larger -Xmx"),
    /** Not retryable: someone must stop that etcd first. */
    TARGET_IN_USE(
            36,
            false,
            "a running etcd on this host holds the data dir's database (member/snap/db): "
                    + "stop it first; nothing was touched"),
    INTERRUPTED(40, true, "stopped by SIGTERM/SIGINT; etcd stopped, partial files removed");

    private final int exitCode;
    private final boolean retryable;
    private final String meaning;

    ErrorCode(int exitCode, boolean retryable, String meaning) {
        this.exitCode = exitCode;
        this.retryable = retryable;
        this.meaning = meaning;
    }

    public int exitCode() {
        return exitCode;
    }

    /** Whether running the same Job again may succeed without anyone changing anything. */
    public boolean retryable() {
        return retryable;
    }

    /** One line for a person: what happened, and what to do when that is not obvious. */
    public String meaning() {
        return meaning;
    }

    /** The code a worker exits with, when it is one of these. */
    public static Optional<ErrorCode> of(int exitCode) {
        return Arrays.stream(values()).filter(c -> c.exitCode == exitCode).findFirst();
    }

    /** The exit codes on which a Job fails at once, ascending (the API server requires the order). */
    public static List<Integer> nonRetryableExitCodes() {
        return Arrays.stream(values())
                .filter(c -> !c.retryable)
                .map(ErrorCode::exitCode)
                .sorted()
                .toList();
    }
}
