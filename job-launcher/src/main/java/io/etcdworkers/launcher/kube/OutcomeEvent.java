package io.etcdworkers.launcher.kube;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.time.Instant;

/**
 * The Kubernetes Event that says how a Job came out: {@code Normal WorkerSucceeded} or
 * {@code Warning WorkerFailed} on the Job, the worker's summary as its message.
 */
final class OutcomeEvent {
    /** The API server refuses longer Event messages. */
    private static final int MAX_MESSAGE = 1024;

    private OutcomeEvent() {}

    static Event of(Job job, JobOutcome outcome, Instant now) {
        boolean ok = outcome.state() == JobOutcome.State.SUCCEEDED && outcome.exitCode() == 0;
        String summary = outcome.result() != null
                ? outcome.result().summary().toString()
                : "exitCode=" + outcome.exitCode() + (outcome.reason() == null ? "" : " reason=" + outcome.reason());
        String time = now.toString();
        return new EventBuilder()
                .withNewMetadata()
                .withGenerateName(job.getMetadata().getName() + "-")
                .withNamespace(job.getMetadata().getNamespace())
                .withLabels(job.getMetadata().getLabels())
                .endMetadata()
                .withNewInvolvedObject()
                .withApiVersion("batch/v1")
                .withKind("Job")
                .withName(job.getMetadata().getName())
                .withNamespace(job.getMetadata().getNamespace())
                .withUid(job.getMetadata().getUid())
                .endInvolvedObject()
                .withType(ok ? "Normal" : "Warning")
                .withReason(ok ? "WorkerSucceeded" : "WorkerFailed")
                .withMessage(summary.length() > MAX_MESSAGE ? summary.substring(0, MAX_MESSAGE - 3) + "..." : summary)
                .withNewSource()
                .withComponent("etcd-workers-launcher")
                .endSource()
                .withFirstTimestamp(time)
                .withLastTimestamp(time)
                .withCount(1)
                .build();
    }
}
