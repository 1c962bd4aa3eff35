package io.etcdworkers.launcher.cli;

import io.etcdworkers.launcher.kube.WatchLimits;
import java.time.Duration;
import picocli.CommandLine.Option;

/** When {@code --wait} gives up on a worker pod that cannot start by itself (exit 55; the Job keeps running). */
final class StuckOptions {
    @Option(
            names = "--image-pull-limit",
            converter = DurationConverter.class,
            defaultValue = "5m",
            description = "--wait: give up (exit 55) once a worker pod could not pull its image (ImagePullBackOff, "
                    + "ErrImagePull) this long, counted from the pod's start; 0: never. Default: ${DEFAULT-VALUE}.")
    Duration imagePullLimit;

    @Option(
            names = "--unschedulable-limit",
            converter = DurationConverter.class,
            defaultValue = "10m",
            description = "--wait: give up (exit 55) once a worker pod has been unschedulable this long; 0: never. "
                    + "Default: ${DEFAULT-VALUE}.")
    Duration unschedulableLimit;

    WatchLimits limits(Duration timeout) {
        return new WatchLimits(timeout, imagePullLimit, unschedulableLimit);
    }
}
