package io.etcdworkers.contract;

/**
 * The worker subcommands the launcher runs ({@code java -jar /app/restore-worker.jar restore ...});
 * each is also the {@code kind} of the result JSON that subcommand writes.
 */
public final class WorkerCommands {
    public static final String RESTORE = "restore";
    /** restore-worker's: one prefix's keys at a point in time, as files or a data dir of their own. */
    public static final String EXTRACT = "extract";
    /** restore-worker's: reads every object a restore would use and reports the restorable range. */
    public static final String VERIFY_BACKUP = "verify-backup";

    public static final String COMPACT = "compact";
    /** compaction-worker's: etcdbrctl's copy, from one store into another, every object checked. */
    public static final String COPY = "copy";

    private WorkerCommands() {}
}
