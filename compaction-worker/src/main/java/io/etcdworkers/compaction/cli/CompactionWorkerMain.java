package io.etcdworkers.compaction.cli;

import io.etcdworkers.workercli.GracefulShutdown;
import io.etcdworkers.workercli.QuietJul;
import io.etcdworkers.workercli.WorkerContext;

/** Entry point of {@code compaction-worker.jar}. */
public final class CompactionWorkerMain {
    private CompactionWorkerMain() {}

    public static void main(String[] args) {
        QuietJul.install();
        System.exit(GracefulShutdown.run(() -> CompactionWorkerCommand.run(WorkerContext.ofProcess(), args)));
    }
}
