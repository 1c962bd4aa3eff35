package io.etcdworkers.launcher.job;

import io.etcdworkers.contract.WorkerCommands;
import io.etcdworkers.contract.WorkerJvm;
import java.util.List;

/**
 * The worker commands the launcher runs, with the one place that says how each is started in the pod.
 *
 * <p>The image also offers entrypoints; if the Jobs should use them, change {@link #command()}
 * and nothing else.
 */
public enum WorkerKind {
    RESTORE(WorkerCommands.RESTORE, "restore", "/app/restore-worker.jar"),
    COMPACT(WorkerCommands.COMPACT, "compaction", "/app/compaction-worker.jar"),
    /** Backups copied from one store to another (etcdbrctl's {@code copy}): compaction-worker's {@code copy}. */
    COPY(WorkerCommands.COPY, "copy", "/app/compaction-worker.jar"),
    /** One prefix's keys at a point in time, written into a claim of their own: restore-worker's {@code extract}. */
    EXTRACT(WorkerCommands.EXTRACT, "extract", "/app/restore-worker.jar"),
    /** A backup health check: {@code verify-backup}, which reads every object a restore would use. */
    VERIFY(WorkerCommands.VERIFY_BACKUP, "verify", "/app/restore-worker.jar"),
    /**
     * A restore drill: a whole restore, verified by etcd, into the pod's scratch volume, thrown away
     * with the pod: proof that the backup restores, before an outage needs it.
     */
    DRILL(WorkerCommands.RESTORE, "drill", "/app/restore-worker.jar"),
    /**
     * The sizing run of {@code --memory-limit=auto}: {@code verify-backup --estimate-memory},
     * whose result says what memory a restore or compaction of this backup needs.
     */
    SIZING(WorkerCommands.VERIFY_BACKUP, "sizing", "/app/restore-worker.jar");

    private final String subcommand;
    private final String nameSuffix;
    private final String jar;

    WorkerKind(String subcommand, String nameSuffix, String jar) {
        this.subcommand = subcommand;
        this.nameSuffix = nameSuffix;
        this.jar = jar;
    }

    /**
     * The container command: the JVM with the image's class archive for the jar (WorkerJvm), the
     * worker's jar and its subcommand; flags follow as args.
     */
    public List<String> command() {
        return List.of("java", WorkerJvm.classArchiveOption(jar), "-jar", jar, subcommand);
    }

    /** The worker's subcommand and the value of the {@code kind} field in its result JSON. */
    public String subcommand() {
        return subcommand;
    }

    /** What Job and label names call this kind: {@code restore}, {@code compaction} or {@code extract}. */
    public String nameSuffix() {
        return nameSuffix;
    }
}
