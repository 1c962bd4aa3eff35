package io.etcdworkers.launcher.cli;

import java.time.Duration;
import picocli.CommandLine.Option;

/** Print instead of create, or create and wait for the outcome. */
final class RunOptions {
    @Option(names = "--dry-run", description = "Print the YAML instead of creating it (for kubectl apply -f -).")
    boolean dryRun;

    @Option(
            names = "--wait",
            description = "Watch the Job, print progress and the outcome, exit with the worker's exit code.")
    boolean await;

    @Option(
            names = "--job-name",
            description =
                    "The Job's name instead of <etcd>-<kind>-<yyyyMMdd-HHmmss> (a DNS label): for a manifest that renders the same every time.")
    String jobName;

    @Option(
            names = "--timeout",
            converter = DurationConverter.class,
            description =
                    "How long --wait watches (default: the Job's deadline plus 5m); the Job keeps running after it.")
    Duration timeout;

    /** Refuses what cannot be done together: a dry run creates no Job for {@code --wait} to watch. */
    void check() {
        if (dryRun && await) {
            throw new IllegalArgumentException(
                    "--wait watches the Job a run creates and --dry-run creates none:" + " give one of them");
        }
    }
}
