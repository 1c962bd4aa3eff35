package io.etcdworkers.launcher.cli;

/** {@code java -jar job-launcher.jar}: see {@link LauncherCli}. */
public final class JobLauncherMain {
    private JobLauncherMain() {}

    public static void main(String[] args) {
        System.exit(LauncherCli.main(args, System.getenv()));
    }
}
