package io.etcdworkers.launcher.kube;

import io.etcdworkers.launcher.job.JobNames;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records how a finished Job came out: counted and timed in the metrics (when there are any) and an
 * {@link OutcomeEvent} on the Job, where the alerting on Events a cluster already has sees it. A
 * refused Event (RBAC) is logged and changes nothing else.
 */
final class OutcomeRecorder {
    private static final Logger LOG = LoggerFactory.getLogger(OutcomeRecorder.class);

    private final KubernetesClient client;
    private final JobMetrics metrics;

    /** @param metrics null: no metrics, only the Event */
    OutcomeRecorder(KubernetesClient client, JobMetrics metrics) {
        this.client = Objects.requireNonNull(client, "client");
        this.metrics = metrics;
    }

    void record(Job job, JobOutcome outcome, Instant now) {
        if (!outcome.finished()) {
            return;
        }
        if (metrics != null) {
            Map<String, String> labels = job.getMetadata().getLabels();
            String created = job.getMetadata().getCreationTimestamp();
            Duration took = created == null
                    ? Duration.ZERO
                    : Duration.between(OffsetDateTime.parse(created).toInstant(), now);
            metrics.record(labels.get(JobNames.LABEL_COMPONENT), labels.get(JobNames.LABEL_ETCD), outcome, took);
        }
        try {
            client.v1()
                    .events()
                    .inNamespace(job.getMetadata().getNamespace())
                    .resource(OutcomeEvent.of(job, outcome, now))
                    .create();
        } catch (KubernetesClientException e) {
            LOG.warn(
                    "could not record the outcome of Job {} as an Event: {}",
                    job.getMetadata().getName(),
                    e.getMessage());
        }
    }
}
