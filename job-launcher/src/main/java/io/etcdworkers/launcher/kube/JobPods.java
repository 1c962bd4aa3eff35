package io.etcdworkers.launcher.kube;

import io.etcdworkers.launcher.job.JobFactory;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Finds a Job's pods and how its worker container last ended. */
final class JobPods {
    /** The label the Job controller puts on its pods (1.27+); {@code job-name} before that. */
    static final String JOB_LABEL = "batch.kubernetes.io/job-name";

    static final String LEGACY_JOB_LABEL = "job-name";

    private JobPods() {}

    /** The Job's pods, by the label the Job controller sets (the legacy one before Kubernetes 1.27). */
    static List<Pod> of(KubernetesClient client, String ns, String jobName) {
        List<Pod> pods = KubeCall.run(
                () -> client.pods()
                        .inNamespace(ns)
                        .withLabel(JOB_LABEL, jobName)
                        .list()
                        .getItems(),
                "list pods of Job " + jobName);
        if (pods.isEmpty()) {
            pods = KubeCall.run(
                    () -> client.pods()
                            .inNamespace(ns)
                            .withLabel(LEGACY_JOB_LABEL, jobName)
                            .list()
                            .getItems(),
                    "list pods of Job " + jobName);
        }
        return pods;
    }

    /** How the worker container of the Job's latest finished pod ended, if one has. */
    static Optional<ContainerStateTerminated> latestWorkerTermination(
            KubernetesClient client, String ns, String jobName) {
        return of(client, ns, jobName).stream()
                .filter(p -> p.getStatus() != null && p.getStatus().getContainerStatuses() != null)
                .flatMap(p -> p.getStatus().getContainerStatuses().stream())
                .filter(s -> JobFactory.CONTAINER.equals(s.getName()))
                .map(ContainerStatus::getState)
                .filter(s -> s != null && s.getTerminated() != null)
                .map(s -> s.getTerminated())
                // RFC 3339 UTC timestamps sort as text
                .max(Comparator.comparing((ContainerStateTerminated t) -> Objects.toString(t.getFinishedAt(), "")));
    }
}
