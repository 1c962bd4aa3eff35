package io.etcdworkers.launcher.kube;

import io.etcdworkers.launcher.job.JobFactory;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Reads a Job's outcome: its state from its conditions, the worker's result from its latest pod. */
final class JobOutcomeReader {
    private final KubernetesClient client;

    JobOutcomeReader(KubernetesClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    /** The named Job's outcome now, without waiting; {@link LauncherError#NOT_FOUND} when there is none. */
    JobOutcome status(String namespace, String name) {
        Job job = KubeCall.run(
                () -> client.batch()
                        .v1()
                        .jobs()
                        .inNamespace(namespace)
                        .withName(name)
                        .get(),
                "get Job " + name);
        if (job == null) {
            throw new LauncherException(LauncherError.NOT_FOUND, "no Job " + name + " in " + namespace);
        }
        return outcome(job);
    }

    JobOutcome outcome(Job job) {
        String ns = job.getMetadata().getNamespace();
        String name = job.getMetadata().getName();
        Optional<JobCondition> terminal = JobConditions.terminal(job);
        if (terminal.isEmpty()) {
            return new JobOutcome(ns, name, JobOutcome.State.RUNNING, null, null, null, null);
        }
        JobCondition c = terminal.get();
        JobOutcome.State state = "Complete".equals(c.getType()) ? JobOutcome.State.SUCCEEDED : JobOutcome.State.FAILED;
        Optional<ContainerStateTerminated> worker = JobPods.latestWorkerTermination(client, ns, name);
        WorkerResult result =
                worker.map(t -> WorkerResult.parse(t.getMessage())).orElse(null);
        Integer exit = worker.map(ContainerStateTerminated::getExitCode).orElse(null);
        // an OOM kill leaves no termination message: only the kubelet's reason says what happened
        String containerReason = worker.map(ContainerStateTerminated::getReason).orElse(null);
        return new JobOutcome(
                ns, name, state, c.getReason(), c.getMessage(), result, exit, containerReason, memoryLimit(job));
    }

    /** The worker container's memory limit in the Job's template, or null. */
    static String memoryLimit(Job job) {
        return Optional.ofNullable(job.getSpec())
                .map(JobSpec::getTemplate)
                .map(PodTemplateSpec::getSpec)
                .map(PodSpec::getContainers)
                .orElse(List.of())
                .stream()
                .filter(c -> JobFactory.CONTAINER.equals(c.getName()))
                .map(Container::getResources)
                .filter(Objects::nonNull)
                .map(ResourceRequirements::getLimits)
                .filter(Objects::nonNull)
                .map(limits -> limits.get("memory"))
                .filter(Objects::nonNull)
                .map(Quantity::toString)
                .findFirst()
                .orElse(null);
    }
}
