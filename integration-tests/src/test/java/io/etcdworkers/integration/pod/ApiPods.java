package io.etcdworkers.integration.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.testsupport.pod.PodExit;
import io.etcdworkers.testsupport.pod.PodTemplate;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;

/**
 * The Job controller's and the kubelet's part, played against the mock API server: a Job the
 * launcher created is read back as it is stored, its pod is run by the test (with podman), and the
 * pod's end is written into the API as a kubelet and the Job controller would report it: a Pod with
 * the container's {@code terminated} state, the Job {@code Complete} or {@code Failed}.
 */
final class ApiPods {
    private static final String COMPONENT = "app.kubernetes.io/component";

    private ApiPods() {}

    /** Waits until the namespace holds a Job of that component (the launcher's label) not in {@code seen}. */
    static Job awaitJob(ApiServer api, String ns, String component, List<String> seen, Duration atMost) {
        AtomicReference<Job> found = new AtomicReference<>();
        Awaitility.await("a " + component + " Job in the API server")
                .atMost(atMost)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    api
                            .client()
                            .batch()
                            .v1()
                            .jobs()
                            .inNamespace(ns)
                            .withLabel(COMPONENT, component)
                            .list()
                            .getItems()
                            .stream()
                            .filter(j -> !seen.contains(j.getMetadata().getName()))
                            .findFirst()
                            .ifPresent(found::set);
                    return found.get() != null;
                });
        return found.get();
    }

    /** The Job's pod template, as the API server stores it. */
    static PodTemplate template(Job job) {
        try {
            JsonNode stored = new ObjectMapper().readTree(new KubernetesSerialization().asJson(job));
            return PodTemplate.of(stored);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The pod's end in the API: its container's terminated state, and the Job finished accordingly. */
    static void report(ApiServer api, Job job, String podName, PodExit exit) {
        String ns = job.getMetadata().getNamespace();
        String jobName = job.getMetadata().getName();
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withName(podName)
                .withNamespace(ns)
                .addToLabels("batch.kubernetes.io/job-name", jobName)
                .addToLabels("job-name", jobName)
                .endMetadata()
                .withSpec(job.getSpec().getTemplate().getSpec())
                .withNewStatus()
                .withPhase(exit.exitCode() == 0 ? "Succeeded" : "Failed")
                .addNewContainerStatus()
                .withName("worker")
                .withImage(job.getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getImage())
                .withNewState()
                .withNewTerminated()
                .withExitCode(exit.exitCode())
                .withReason(exit.reason())
                .withMessage(exit.terminationMessage())
                .withStartedAt(exit.startedAt().toString())
                .withFinishedAt(exit.finishedAt().toString())
                .endTerminated()
                .endState()
                .endContainerStatus()
                .endStatus()
                .build();
        api.client().pods().inNamespace(ns).resource(pod).create();
        Job current = api.client()
                .batch()
                .v1()
                .jobs()
                .inNamespace(ns)
                .withName(jobName)
                .get();
        current.setStatus(
                exit.exitCode() == 0
                        ? new JobStatusBuilder()
                                .withSucceeded(1)
                                .withConditions(new JobConditionBuilder()
                                        .withType("Complete")
                                        .withStatus("True")
                                        .build())
                                .build()
                        : new JobStatusBuilder()
                                .withFailed(1)
                                .withConditions(new JobConditionBuilder()
                                        .withType("Failed")
                                        .withStatus("True")
                                        .withReason("PodFailurePolicy")
                                        .withMessage("Container worker for pod " + ns + "/" + podName
                                                + " failed with exit code " + exit.exitCode()
                                                + " matching FailJob rule at index 1")
                                        .build())
                                .build());
        api.client().batch().v1().jobs().inNamespace(ns).resource(current).updateStatus();
    }
}
