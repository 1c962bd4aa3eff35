package io.etcdworkers.launcher.kube;

import io.etcdworkers.launcher.job.JobNames;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates a Job unless one for the same target (namespace, etcd, kind; and member, for a member's
 * restore) is still active.
 *
 * <p>The check and the create are two calls, so two launchers racing in the same instant can both
 * pass it; the worker's own target lock (exit code 34) is the last line for that.
 */
final class JobCreator {
    private static final Logger LOG = LoggerFactory.getLogger(JobCreator.class);

    private final KubernetesClient client;

    JobCreator(KubernetesClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    Job create(Job job) {
        String ns = job.getMetadata().getNamespace();
        Map<String, String> labels = job.getMetadata().getLabels();
        String etcd = labels.get(JobNames.LABEL_ETCD);
        String component = labels.get(JobNames.LABEL_COMPONENT);
        List<Job> active = KubeCall.run(
                        () -> client.batch()
                                .v1()
                                .jobs()
                                .inNamespace(ns)
                                .withLabel(JobNames.LABEL_MANAGED_BY, JobNames.MANAGED_BY_VALUE)
                                .withLabel(JobNames.LABEL_COMPONENT, component)
                                .withLabel(JobNames.LABEL_ETCD, etcd)
                                .list()
                                .getItems(),
                        "list Jobs in " + ns)
                .stream()
                .filter(j -> !JobConditions.finished(j))
                .filter(j -> sameMember(job, j))
                .toList();
        if (!active.isEmpty()) {
            throw new LauncherException(
                    LauncherError.TARGET_BUSY,
                    "refusing to start " + component + " for etcd "
                            + etcd + " in " + ns + ": Job "
                            + active.get(0).getMetadata().getName()
                            + " for the same target is still active (cancel it, or wait for it to finish)");
        }
        try {
            Job created =
                    client.batch().v1().jobs().inNamespace(ns).resource(job).create();
            LOG.info(
                    "created Job job={} namespace={} etcd={} kind={}",
                    created.getMetadata().getName(),
                    ns,
                    etcd,
                    component);
            return created;
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                throw new LauncherException(
                        LauncherError.TARGET_BUSY,
                        "Job " + job.getMetadata().getName() + " already exists in " + ns,
                        e);
            }
            throw KubeCall.failure("create Job " + job.getMetadata().getName(), e);
        }
    }

    /**
     * The members' restore Jobs of one cluster run side by side, one per member; any other Job for
     * the etcd (a whole restore, or one of the same member) is the same target.
     */
    private static boolean sameMember(Job created, Job active) {
        String member = created.getMetadata().getLabels().get(JobNames.LABEL_MEMBER);
        String other = active.getMetadata().getLabels() == null
                ? null
                : active.getMetadata().getLabels().get(JobNames.LABEL_MEMBER);
        return member == null || other == null || member.equals(other);
    }
}
