package io.etcdworkers.restore.cli;

/** Entry point of {@code restore-worker.jar}. */
public final class RestoreWorkerMain {
    private RestoreWorkerMain() {}

    public static void main(String[] args) {
        System.exit(RestoreWorkerCommand.run(WorkerContext.ofProcess(), args));
    }
}
