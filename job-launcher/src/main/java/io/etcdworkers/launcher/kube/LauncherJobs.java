package io.etcdworkers.launcher.kube;

import io.etcdworkers.launcher.job.JobNames;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The Jobs the launcher made in a namespace: listed, and cancelled one by one. */
final class LauncherJobs {
    private static final Logger LOG = LoggerFactory.getLogger(LauncherJobs.class);

    private final KubernetesClient client;

    LauncherJobs(KubernetesClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    /** The Jobs this launcher made in {@code namespace} (also those a CronJob of it made), oldest first. */
    List<Job> list(String namespace) {
        return KubeCall.run(
                        () -> client.batch()
                                .v1()
                                .jobs()
                                .inNamespace(namespace)
                                .withLabel(JobNames.LABEL_MANAGED_BY, JobNames.MANAGED_BY_VALUE)
                                .list()
                                .getItems(),
                        "list Jobs")
                .stream()
                .sorted(Comparator.comparing(
                                (Job j) -> Objects.toString(j.getMetadata().getCreationTimestamp(), ""))
                        .thenComparing(j -> j.getMetadata().getName()))
                .toList();
    }

    /**
     * Deletes the Job with foreground propagation: the Job stays, marked for deletion and counted as
     * active by {@link JobCreator}, until its pods are gone, so no new run starts beside a dying one.
     * Returns false when there was no such Job.
     */
    boolean cancel(String namespace, String name) {
        List<?> deleted = KubeCall.run(
                () -> client.batch()
                        .v1()
                        .jobs()
                        .inNamespace(namespace)
                        .withName(name)
                        .withPropagationPolicy(DeletionPropagation.FOREGROUND)
                        .delete(),
                "delete Job " + name);
        boolean any = deleted != null && !deleted.isEmpty();
        if (any) {
            LOG.info("cancelled Job job={} namespace={}", name, namespace);
        }
        return any;
    }
}
