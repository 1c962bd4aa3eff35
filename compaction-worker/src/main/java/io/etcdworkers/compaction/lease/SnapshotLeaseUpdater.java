package io.etcdworkers.compaction.lease;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records the revision of the newest full snapshot in a Kubernetes Lease, as etcd-backup-restore
 * does for etcd-druid: {@code spec.holderIdentity} is the revision (as a decimal string) and
 * {@code spec.renewTime} the time of the update. The holder only ever moves forward: a Lease
 * that already names a higher revision is left alone.
 */
public final class SnapshotLeaseUpdater {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotLeaseUpdater.class);

    /** What happened to the Lease. */
    public record Result(boolean updated, long previousRevision, Optional<String> error) {
        /** The renewal could not be done at all (no client, no configuration). */
        public static Result failed(String error) {
            return new Result(false, 0, Optional.of(error));
        }
    }

    private final KubernetesClient client;
    private final String namespace;
    private final Clock clock;

    public SnapshotLeaseUpdater(KubernetesClient client, String namespace, Clock clock) {
        this.client = client;
        this.namespace = namespace;
        this.clock = clock;
    }

    /**
     * Never throws: a failure is returned (and logged at WARN), since the snapshot is uploaded already;
     * {@link LeaseRenewal} decides what it means for the run.
     */
    public Result renew(String leaseName, long revision) {
        try {
            Lease lease =
                    client.leases().inNamespace(namespace).withName(leaseName).get();
            if (lease == null) {
                return failed(leaseName, "Lease " + namespace + "/" + leaseName + " does not exist");
            }
            long previous = revisionOf(lease);
            if (previous >= revision) {
                LOG.info(
                        "snapshot lease already at a newer or equal revision lease={} holder={} revision={}",
                        leaseName,
                        previous,
                        revision);
                return new Result(false, previous, Optional.empty());
            }
            ZonedDateTime now = ZonedDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
            client.leases().inNamespace(namespace).withName(leaseName).edit(l -> {
                l.getSpec().setHolderIdentity(Long.toString(revision));
                l.getSpec().setRenewTime(now);
                return l;
            });
            LOG.info(
                    "snapshot lease renewed lease={}/{} holder={} previous={}",
                    namespace,
                    leaseName,
                    revision,
                    previous);
            return new Result(true, previous, Optional.empty());
        } catch (KubernetesClientException e) {
            if (e.getCode() == 403) {
                return failed(
                        leaseName,
                        "access to Lease " + namespace + "/" + leaseName + " is forbidden: the pod's"
                                + " ServiceAccount needs get and patch on it (job-launcher lease-role renders the Role)");
            }
            if (e.getCode() == 404) {
                return failed(leaseName, "Lease " + namespace + "/" + leaseName + " does not exist");
            }
            return failed(leaseName, "cannot update Lease " + namespace + "/" + leaseName + ": " + e.getMessage());
        }
    }

    private static long revisionOf(Lease lease) {
        String holder = lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
        if (holder == null || holder.isBlank()) {
            return 0;
        }
        try {
            return Long.parseLong(holder.strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static Result failed(String leaseName, String message) {
        LOG.warn("snapshot lease not renewed lease={}: {}", leaseName, message);
        return new Result(false, 0, Optional.of(message));
    }
}
