package io.etcdworkers.launcher.job;

/**
 * What one Job does, and only what that kind of work takes: a restore ({@link RestoreFlags}), a
 * compaction ({@link CompactFlags}), an extract ({@link ExtractFlags}), a copy ({@link CopyFlags}), or one of the checks that take
 * no flags of their own ({@link Verify}, {@link Drill}, {@link Sizing}). The kind of a request is its
 * work's kind, so a request cannot carry flags of another kind.
 */
public sealed interface JobWork
        permits RestoreFlags, CompactFlags, ExtractFlags, CopyFlags, JobWork.Verify, JobWork.Drill, JobWork.Sizing {

    /** The worker command this work runs. */
    WorkerKind kind();

    /** {@code verify-backup}: reads and checks every object a restore would use. */
    Verify VERIFY = new Verify();
    /** A whole restore into the pod's scratch volume, verified by etcd and thrown away with the pod. */
    Drill DRILL = new Drill();
    /** {@code verify-backup --estimate-memory}: what memory a restore or compaction of the backup needs. */
    Sizing SIZING = new Sizing();

    /** See {@link #VERIFY}. */
    record Verify() implements JobWork {
        @Override
        public WorkerKind kind() {
            return WorkerKind.VERIFY;
        }
    }

    /** See {@link #DRILL}. */
    record Drill() implements JobWork {
        @Override
        public WorkerKind kind() {
            return WorkerKind.DRILL;
        }
    }

    /** See {@link #SIZING}. */
    record Sizing() implements JobWork {
        @Override
        public WorkerKind kind() {
            return WorkerKind.SIZING;
        }
    }

    /** The check of {@code kind}, which takes no flags: verify, drill or sizing. */
    static JobWork check(WorkerKind kind) {
        return switch (kind) {
            case VERIFY -> VERIFY;
            case DRILL -> DRILL;
            case SIZING -> SIZING;
            case RESTORE, COMPACT, EXTRACT, COPY ->
                throw new IllegalArgumentException(
                        "a " + kind.nameSuffix() + " takes its own flags, it is not a check");
        };
    }
}
