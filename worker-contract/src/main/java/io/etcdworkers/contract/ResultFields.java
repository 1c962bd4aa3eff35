package io.etcdworkers.contract;

/**
 * The fields of a worker's result JSON that say how the run ended, and where a worker in a pod
 * writes it: the launcher reads them from the pod's termination message to report the outcome,
 * so both sides name them here. The figures of a run (base, deltas, digests...) are the workers'
 * alone and documented in docs/reference.md.
 */
public final class ResultFields {
    /** The subcommand that ran ({@link WorkerCommands}), or {@code verify-backup}. */
    public static final String KIND = "kind";
    /** One of {@link #SUCCEEDED}, {@link #FAILED}, {@link #SKIPPED}, {@link #RUNNING}. */
    public static final String OUTCOME = "outcome";
    /** The version of the worker that wrote the result ({@link BuildVersion}). */
    public static final String VERSION = "version";
    /** The process exit code: 0, or an {@link ErrorCode#exitCode()}. */
    public static final String EXIT_CODE = "exitCode";
    /** On failure: the {@link ErrorCode}'s name. */
    public static final String ERROR_CODE = "errorCode";
    /** On failure: the message, naming the object, revision or path concerned. */
    public static final String ERROR = "error";
    /** On failure about one backup object (a delta whose decoding exhausted the heap): its key. */
    public static final String OBJECT = "object";
    /** On failure: {@link ErrorCode#retryable()}. */
    public static final String RETRYABLE = "retryable";
    /** In the termination message only: fields were dropped to fit its 4 KiB. */
    public static final String TRUNCATED = "truncated";

    /** verify-backup with --estimate-memory: what a rebuild of the backup needs in memory. */
    public static final String SIZE_ESTIMATE = "sizeEstimate";
    /** In {@link #SIZE_ESTIMATE}: the container memory limit, in bytes. */
    public static final String MEMORY_LIMIT_BYTES = "memoryLimitBytes";
    /** In {@link #SIZE_ESTIMATE}: the JVM heap's share of that limit, in percent. */
    public static final String HEAP_PERCENT = "heapPercent";

    public static final String SUCCEEDED = "succeeded";
    public static final String FAILED = "failed";
    /** A compaction with too little to compact. */
    public static final String SKIPPED = "skipped";
    /** Written first, so a process that died mid-way never reads as a success. */
    public static final String RUNNING = "running";

    /** The worker writes its result here when the file exists; the Job's pods read it as their termination message. */
    public static final String TERMINATION_LOG = "/dev/termination-log";

    private ResultFields() {}
}
