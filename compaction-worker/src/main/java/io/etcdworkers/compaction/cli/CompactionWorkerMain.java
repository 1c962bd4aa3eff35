package io.etcdworkers.compaction.cli;

import io.etcdworkers.restore.workercli.GracefulShutdown;
import io.etcdworkers.restore.workercli.QuietJul;
import io.etcdworkers.restore.workercli.WorkerContext;

/** Entry point of {@code compaction-worker.jar}. */
public final class CompactionWorkerMain {
    private CompactionWorkerMain() {}

    public static void main(String[] args) {
        QuietJul.install();
        System.exit(GracefulShutdown.run(() -> CompactionWorkerCommand.run(WorkerContext.ofProcess(), args)));
    }
}
