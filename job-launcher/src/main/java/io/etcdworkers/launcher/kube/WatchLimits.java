package io.etcdworkers.launcher.kube;

import io.etcdworkers.launcher.job.RequestChecks;
import java.time.Duration;
import java.util.Objects;

/**
 * How long {@link JobLauncher#watch} waits, and when it gives up on a pod that cannot start.
 *
 * @param timeout            the whole watch; the Job keeps running after it
 * @param imagePullLimit     give up once a worker pod has been unable to pull its image
 *                           ({@code ImagePullBackOff}, {@code ErrImagePull}, ...) this long; zero = never
 * @param unschedulableLimit give up once a worker pod has been unschedulable this long; zero = never
 */
public record WatchLimits(Duration timeout, Duration imagePullLimit, Duration unschedulableLimit) {
    public static final Duration DEFAULT_IMAGE_PULL_LIMIT = Duration.ofMinutes(5);
    public static final Duration DEFAULT_UNSCHEDULABLE_LIMIT = Duration.ofMinutes(10);

    public WatchLimits {
        RequestChecks.positive(timeout, "watch timeout");
        imagePullLimit =
                notNegative(imagePullLimit == null ? DEFAULT_IMAGE_PULL_LIMIT : imagePullLimit, "image pull limit");
        unschedulableLimit = notNegative(
                unschedulableLimit == null ? DEFAULT_UNSCHEDULABLE_LIMIT : unschedulableLimit, "unschedulable limit");
    }

    /** The timeout with the default limits. */
    public static WatchLimits of(Duration timeout) {
        return new WatchLimits(timeout, null, null);
    }

    private static Duration notNegative(Duration d, String what) {
        if (Objects.requireNonNull(d, what).isNegative()) {
            throw new IllegalArgumentException(what + " must not be negative (0: never give up): " + d);
        }
        return d;
    }
}
