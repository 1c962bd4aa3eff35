package io.etcdworkers.launcher.kube;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import java.util.Optional;

/** Whether a Job has finished, read from its {@code Complete} and {@code Failed} conditions. */
final class JobConditions {
    private JobConditions() {}

    static boolean finished(Job job) {
        return terminal(job).isPresent();
    }

    /** The Job's true {@code Complete} or {@code Failed} condition, once it has finished. */
    static Optional<JobCondition> terminal(Job job) {
        if (job.getStatus() == null || job.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return job.getStatus().getConditions().stream()
                .filter(c -> "True".equals(c.getStatus()))
                .filter(c -> "Complete".equals(c.getType()) || "Failed".equals(c.getType()))
                .findFirst();
    }
}
