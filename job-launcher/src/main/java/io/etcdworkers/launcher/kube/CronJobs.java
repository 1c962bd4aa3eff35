package io.etcdworkers.launcher.kube;

import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.util.Objects;

/** Puts the launcher's CronJobs on the cluster. */
final class CronJobs {
    private final KubernetesClient client;

    CronJobs(KubernetesClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    /** Creates the CronJob, or updates the one of the same name. */
    CronJob apply(CronJob cron) {
        String ns = cron.getMetadata().getNamespace();
        return KubeCall.run(
                () -> client.batch()
                        .v1()
                        .cronjobs()
                        .inNamespace(ns)
                        .resource(cron)
                        .createOr(NonDeletingOperation::update),
                "apply CronJob " + cron.getMetadata().getName());
    }
}
