package io.etcdworkers.restore.cli;

import io.etcdworkers.workercli.GracefulShutdown;
import io.etcdworkers.workercli.QuietJul;
import io.etcdworkers.workercli.WorkerContext;

/** Entry point of {@code restore-worker.jar}. */
public final class RestoreWorkerMain {
    private RestoreWorkerMain() {}

    public static void main(String[] args) {
        QuietJul.install();
        System.exit(GracefulShutdown.run(() -> RestoreWorkerCommand.run(WorkerContext.ofProcess(), args)));
    }
}
